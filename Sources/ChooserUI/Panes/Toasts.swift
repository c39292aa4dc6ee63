import Foundation
import ScreenKit
import TerminalUI

/// Toasts have a place of their own: the key bar's row, which the newest
/// toast takes over while it shows (the keys come back when it goes). One
/// line, never on a pane's border: a message of several lines (a raw
/// transport error) shows its first line, and a line too long for the row is
/// cut with "…". When more toasts wait, a count says so at the right.
enum Toasts {
    static func draw(_ state: AppState, in row: Rect, into buffer: inout Buffer) {
        guard let toast = state.toasts.last, row.width > 0 else { return }
        let theme = state.theme
        let (prefix, style): (String, Style) = switch toast.kind {
        case .info: ("", theme[.toast])
        case .warning: ("⚠ ", theme[.toast].adding(.bold))
        case .error: ("✗ ", theme[.toast].adding(.bold))
        }
        let more = state.toasts.count > 1 ? " +\(state.toasts.count - 1) " : ""
        let room = max(0, row.width - 2 - more.displayWidth)
        buffer.fill(row, style: style)
        buffer.write(" " + (prefix + line(of: toast.text)).truncated(toWidth: room), x: row.x, y: row.y, style: style, limit: row.width)
        if !more.isEmpty { buffer.write(more, x: row.maxX - more.displayWidth, y: row.y, style: theme[.toast]) }
    }

    /// A toast's text as one line: its first line that says anything, in
    /// display-safe form, with runs of spaces made one.
    static func line(of text: String) -> String {
        let first = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
        return first.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").displaySafe
    }
}

extension DialogFrame {
    /// Draws the frame over the chooser's dialog area and returns the area
    /// inside it; the panes' rows beside it are cleared, not cut.
    static func draw(title: String, size wanted: Size, state: AppState, into buffer: inout Buffer) -> Rect {
        draw(title: title, size: wanted, theme: state.theme, over: state.dialogArea, clearing: state.panesBehindDialogs, into: &buffer)
    }
}

extension AppState {
    /// The accounts and guide panes, frames and all: a dialog clears the rows of them it spans (`DialogFrame.clear`).
    var panesBehindDialogs: [Rect] {
        guard let layout else { return [] }
        return [layout.accounts, layout.guide]
    }
}
