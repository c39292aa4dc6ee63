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
    /// and leaves size changes, stops and continues to that program. A
    /// terminating signal still reaches `onSignal`.
    public func handOver() {
        guard isRunning, !isHandedOver else { return }
        inputSource?.cancel()
        inputSource = nil
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
        clearMainScreen()
        tcflush(input, TCIFLUSH)
        resumed()
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
