import ChooserUI
import CursesBackend
import TerminalUI

/// The terminal wired to a full-screen program, once for all of them (the
/// chooser, a station, the tour, the board): keys, clicks and resizes go to
/// the loop as input, a terminating signal as its `terminate`, `t` moves
/// through the built-in themes as this terminal can show them, and the
/// signal that ended the program becomes its exit status (128 + n), as a
/// shell's would.
@MainActor
final class TerminalProgram {
    let terminal = CursesTerminal()
    /// The first terminating signal that came.
    private var received: Int32?

    /// The theme after the one named, in the colours this terminal has, and a warning when its file was bad.
    var nextTheme: @Sendable (String) -> (Theme, String?) {
        let colors = terminal.colors
        return { current in
            let next = ThemeSelection.resolve(requested: Theme.builtInName(after: current), environment: [:], builtInText: BundledFiles.themeText)
            return (next.theme.reduced(toColors: colors), next.warning)
        }
    }

    /// Sends the terminal's input to `send` (`onKey` hears keys first) and
    /// a terminating signal to `terminate`, runs the program until `run`
    /// returns, and gives the terminal back. Returns the signal that ended it, if one did.
    func run(
        send: @escaping @MainActor (InputEvent) -> Void, terminate: @escaping @MainActor () -> Void, run: () async -> Void
    ) async -> Int32? {
        terminal.listen(
            onEvent: send,
            onSignal: { [weak self] signal in
                self?.received = self?.received ?? signal
                terminate()
            })
        await run()
        terminal.stop()
        return received
    }
}
