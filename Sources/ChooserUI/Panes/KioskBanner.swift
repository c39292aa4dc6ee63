import ScreenKit
import TerminalUI

/// A station's idle countdown, over everything: who will be signed out,
/// how soon, and that any key stays.
enum KioskBanner {
    static func draw(_ state: AppState, into buffer: inout Buffer) {
        guard let seconds = state.kioskSecondsLeft else { return }
        let who = state.active.account?.name.displaySafe ?? "This station"
        let inner = DialogFrame.draw(
            title: "Still there?", size: Size(width: min(56, state.size.width - 4), height: 6), state: state, into: &buffer)
        let lines = [
            "\(who) \(state.active.account == nil ? "goes back to its first screen" : "will be signed out") in \(seconds) s.",
            "Press any key to stay.",
        ]
        for (offset, line) in lines.enumerated() {
            buffer.write(line, x: inner.x, y: inner.y + 1 + offset, style: state.theme[offset == 0 ? .statusWarning : .text], limit: inner.width)
        }
    }
}
