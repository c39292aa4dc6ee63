import CNcurses
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesTerminal {
    /// Lends the terminal to another program: puts it back as it was before
    /// curses (modes, main screen, cursor), the main screen and its
    /// scrollback cleared, and until `takeBack()` reads no key, draws nothing
    /// and leaves size changes, stops and continues to that program. SIGTERM
    /// and SIGHUP still reach `onSignal`; SIGINT and SIGQUIT, which that
    /// program's keys send, are dropped.
    public func handOver() {
        guard isRunning, !isHandedOver else { return }
        inputSource?.cancel()
        inputSource = nil
        restoreState.pointee.lent = 1
        releaseTerminal()
        clearMainScreen()
        isHandedOver = true
    }

    /// Takes the terminal back after `handOver()`: everything the other
    /// program may have set is reset (see `takeBackResets`), what it left on
    /// the main screen and in its scrollback is cleared, what was typed and
    /// not read is dropped, curses' modes and screen come back, and a
    /// `.resize` makes the next frame repaint every cell.
    public func takeBack() {
        guard isRunning, isHandedOver else { return }
        isHandedOver = false
        writeBytes(restoreSequence(mouse: true) + Self.takeBackResets)
        clearMainScreen()
        tcflush(input, TCIFLUSH)
        resumed()
        flushinp()
        restoreState.pointee.lent = 0
        startInputSource()
    }

    /// What a program may have set on the terminal, reset, in this order:
    /// its reports (bracketed paste, focus, every mouse mode), then a soft
    /// reset (DECSTR), and then, because a soft reset leaves them as the
    /// terminal likes (xterm turns auto-wrap off), each mode on its own:
    /// an empty window and icon title, auto-wrap on (DECAWM), origin mode
    /// off (DECOM), the scroll region the whole screen (DECSTBM), normal
    /// video (DECSCNM), the cursor shown with its default shape, ASCII in G0
    /// and G1 with G0 selected, no left and right margins (DECLRMM), the
    /// colour palette and the default foreground, background and cursor
    /// colours (OSC 104, 110, 111, 112), the keyboard as it was (kitty's
    /// progressive enhancement popped, modifyOtherKeys off), and no
    /// attributes (SGR 0). Whatever the last person's program did, the next
    /// person's station starts the same.
    static let takeBackResets: [UInt8] = Array(
        (["\u{1B}[?2004l", "\u{1B}[?1004l", "\u{1B}[?1000l", "\u{1B}[?1002l", "\u{1B}[?1003l", "\u{1B}[?1005l",
          "\u{1B}[?1006l", "\u{1B}[?1015l",
          "\u{1B}[!p",
          "\u{1B}]0;\u{07}", "\u{1B}[?7h", "\u{1B}[?6l", "\u{1B}[r", "\u{1B}[?5l", "\u{1B}[?25h", "\u{1B}[0 q",
          "\u{1B}(B", "\u{1B})B", "\u{0F}", "\u{1B}[?69l",
          "\u{1B}]104\u{07}", "\u{1B}]110\u{07}", "\u{1B}]111\u{07}", "\u{1B}]112\u{07}",
          "\u{1B}[<99u", "\u{1B}[>4m",
          "\u{1B}[0m"] as [String]).joined().utf8)

    /// Clears the screen shown and its scrollback (`clear`, `E3`), so that
    /// nothing of one person's session is left for the next.
    private func clearMainScreen() {
        for capability in ["clear", "E3"] {
            if let value = sb_tigetstr(capability) { writeBytes(Array(String(cString: value).utf8)) }
        }
    }
}
