import CNcurses
import TerminalUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Handing a running terminal from the launcher to the runtime it loads
/// into the same process, so that the runtime carries on from the
/// launcher's first frame: no second `newterm` (which would enter the
/// alternate screen again, and xterm clears it then), no clear, and a
/// first draw that sends only what differs.
extension CursesTerminal {
    /// Gives up the terminal without ending curses: the screen keeps the
    /// last frame, the terminal stays in the chooser's modes, and the
    /// restore stays armed until the receiver calls `release` (pass a C
    /// function that calls `CursesTerminal.releaseHandedOff()`). This
    /// instance is finished afterwards.
    public func handOff(release: @convention(c) () -> Void) -> sb_handoff {
        precondition(isRunning, "handOff() on a terminal that is not running")
        var handoff = sb_handoff()
        handoff.screen = screen
        handoff.output = outputFile
        handoff.input = inputFile
        if let shellModes {
            handoff.shell_modes = shellModes
            handoff.has_shell_modes = 1
        }
        handoff.mouse = mouse ? 1 : 0
        handoff.release = release
        Self.detachWakePipe()
        stopInputSources()
        if let inputWindow { delwin(inputWindow) }
        inputWindow = nil
        if wakePipe.write >= 0 { close(wakePipe.write) }
        wakePipe = (-1, -1)
        screen = nil
        outputFile = nil
        inputFile = nil
        isRunning = false
        Self.running = false
        onEvent = nil
        onSignal = nil
        return handoff
    }

    /// For the launcher's `release`: disarms this image's restore and puts
    /// back the signal handlers it replaced.
    public nonisolated static func releaseHandedOff() {
        disarmRestore()
    }

    /// Takes over a terminal another image handed over (`handOff`): the
    /// same screen and streams, this image's signal handlers and restore,
    /// the same modes. The first `draw(_:)` repaints nothing that is
    /// already on screen.
    public convenience init(adopting handoff: sb_handoff, measuresOutput: Bool = false) throws {
        guard let screen = handoff.screen, let output = handoff.output, let input = handoff.input else {
            throw CursesError.notATerminal
        }
        try self.init(adopting: screen, output: output, input: input, handoff: handoff, measuresOutput: measuresOutput)
    }
}
