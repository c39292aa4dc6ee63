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

    /// Takes the terminal back after `handOver()`: what the other program
    /// left on the main screen and in its scrollback is cleared, what was
    /// typed and not read is dropped, curses' modes and screen come back,
    /// and a `.resize` makes the next frame repaint every cell.
    public func takeBack() {
        guard isRunning, isHandedOver else { return }
        isHandedOver = false
        // What the other program may have left on: its alternate screen, its
        // modes (bracketed paste, focus and mouse reports), then the screen itself.
        writeBytes(restoreSequence(mouse: true) + Array("\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1006l".utf8))
        clearMainScreen()
        tcflush(input, TCIFLUSH)
        resumed()
        flushinp()
        restoreState.pointee.lent = 0
        startInputSource()
    }

    /// Clears the screen shown and its scrollback (`clear`, `E3`), so that
    /// nothing of one person's session is left for the next.
    private func clearMainScreen() {
        for capability in ["clear", "E3"] {
            if let value = sb_tigetstr(capability) { writeBytes(Array(String(cString: value).utf8)) }
        }
    }
}
