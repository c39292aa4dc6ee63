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

/// A frame in the middle of the screen for a dialog, with its keys along
/// the bottom border, taken from the dialog's key table.
enum DialogFrame {
    /// Draws the frame and returns the area inside it.
    static func draw(title: String, size wanted: Size, state: AppState, into buffer: inout Buffer) -> Rect {
        draw(title: title, size: wanted, theme: state.theme, over: state.dialogArea, into: &buffer)
    }

    /// Draws the frame centred in `area` in `theme` (the board's dialogs) and returns the area inside it.
    static func draw(title: String, size wanted: Size, theme: Theme, over area: Rect, into buffer: inout Buffer) -> Rect {
        let rect = area.centered(wanted)
        buffer.fill(rect, style: theme[.dialog])
        let inner = buffer.drawBox(rect, title: title, style: theme[.borderFocused], titleStyle: theme[.dialogTitle])
        return inner.inset(dx: 1, dy: 0)
    }

    /// Writes word-wrapped text from row `y`; returns the row after it.
    @discardableResult
    static func paragraph(_ text: String, in rect: Rect, y: Int, style: Style, into buffer: inout Buffer) -> Int {
        var y = y
        for line in wrap(text, width: rect.width) where y < rect.maxY {
            buffer.write(line, x: rect.x, y: y, style: style)
            y += 1
        }
        return y
    }

    /// Splits text into lines of at most `width` columns at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let word = String(word)
            if line.isEmpty {
                line = word
            } else if line.displayWidth + 1 + word.displayWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
            while line.displayWidth > width {
                let head = line.truncated(toWidth: width, ellipsis: "")
                lines.append(head)
                line = String(line.dropFirst(head.count))
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
