import ScreenKit
import TerminalUI

/// Toasts, newest lowest, in the bottom-right corner above the key bar.
enum Toasts {
    static func draw(_ state: AppState, above keyBar: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        let width = min(keyBar.width - 4, 76)
        var y = keyBar.y - 1
        for toast in state.toasts.reversed() where y > 0 {
            let (prefix, style): (String, Style) = switch toast.kind {
            case .info: ("", theme[.toast])
            case .warning: ("⚠ ", theme[.toast].adding(.bold))
            case .error: ("✗ ", theme[.toast].adding(.bold))
            }
            // Up to three lines each, newest lowest, right-aligned.
            let lines = Array(DialogFrame.wrap(prefix + toast.text.displaySafe, width: width - 2).prefix(3))
            let boxWidth = (lines.map(\.displayWidth).max() ?? 0) + 2
            for line in lines.reversed() where y > 0 {
                buffer.write(" " + line.padded(toWidth: boxWidth - 2) + " ", x: keyBar.maxX - boxWidth - 1, y: y, style: style)
                y -= 1
            }
        }
    }
}

extension DialogFrame {
    /// Draws the frame over the chooser's dialog area and returns the area inside it.
    static func draw(title: String, size wanted: Size, state: AppState, into buffer: inout Buffer) -> Rect {
        draw(title: title, size: wanted, theme: state.theme, over: state.dialogArea, into: &buffer)
    }
}
