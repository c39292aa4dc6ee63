#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesTerminal {
    /// Lends the terminal to another program: puts it back as it was before
    /// curses (modes, main screen, cursor), and until `takeBack()` reads no
    /// key, draws nothing and leaves size changes, stops and continues to
    /// that program. A terminating signal still reaches `onSignal`.
    public func handOver() {
        guard isRunning, !isHandedOver else { return }
        inputSource?.cancel()
        inputSource = nil
        releaseTerminal()
        isHandedOver = true
    }

    /// Takes the terminal back after `handOver()`: what was typed and not
    /// read meanwhile is dropped, curses' modes and screen come back, and a
    /// `.resize` makes the next frame repaint every cell.
    public func takeBack() {
        guard isRunning, isHandedOver else { return }
        isHandedOver = false
        tcflush(input, TCIFLUSH)
        resumed()
        startInputSource()
    }
}
