import TerminalUI

/// A frame in the middle of the screen for a dialog, with its keys along
/// the bottom border, taken from the dialog's key table.
public enum DialogFrame {
    /// Draws the frame centred in `area` in `theme` and returns the area inside it.
    ///
    /// `clearing` names the panes behind, frames and all, cleared first on
    /// the rows the dialog spans (`clear`), so what shows beside the dialog
    /// is either a pane's full row or nothing, never a fragment cut by the
    /// frame.
    public static func draw(
        title: String, size wanted: Size, theme: Theme, over area: Rect, clearing panes: [Rect] = [], into buffer: inout Buffer
    ) -> Rect {
        let rect = area.centered(wanted)
        clear(panes, besides: rect, theme: theme, into: &buffer)
        buffer.fill(rect, style: theme[.dialog])
        let inner = buffer.drawBox(rect, title: title, style: theme[.borderFocused], titleStyle: theme[.dialogTitle])
        return inner.inset(dx: 1, dy: 0)
    }

    /// Clears each of `panes` (a pane's whole rectangle, its frame
    /// included) on the rows `rect` spans. A dialog covers a pane's border
    /// row (its top, with the title, or its bottom) wholly or not at all:
    /// when it reaches one, the pane is cleared across its full width,
    /// frame too, on every row the dialog spans, so no piece of a title or
    /// corner is left beside it; otherwise only the pane's inside is, and its
    /// side borders frame the dialog.
    public static func clear(_ panes: [Rect], besides rect: Rect, theme: Theme, into buffer: inout Buffer) {
        for pane in panes {
            let rows = pane.intersection(Rect(x: pane.x, y: rect.y, width: pane.width, height: rect.height))
            guard rows.width > 0, rows.height > 0 else { continue }
            let reachesBorder = rows.y == pane.y || rows.maxY == pane.maxY
            let cleared = reachesBorder ? rows : rows.intersection(pane.inset())
            if cleared.width > 0, cleared.height > 0 { buffer.fill(cleared, style: theme[.text]) }
        }
    }

    /// Writes one of a dialog's choices on row `y` of `inner`: the
    /// selected one marked "▸" on a filled row (bold when `bold`), the
    /// others indented; cut to the row's width.
    public static func choice(_ text: String, selected: Bool, bold: Bool = false, theme: Theme, in inner: Rect, y: Int, into buffer: inout Buffer) {
        let style = selected ? theme[.accountSelected] : theme[.text]
        if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style) }
        buffer.write(((selected ? "▸ " : "  ") + text).truncated(toWidth: inner.width), x: inner.x, y: y, style: selected && bold ? style.adding(.bold) : style)
    }

    /// Writes word-wrapped text from row `y`; returns the row after it.
    @discardableResult
    public static func paragraph(_ text: String, in rect: Rect, y: Int, style: Style, into buffer: inout Buffer) -> Int {
        var y = y
        for line in wrap(text, width: rect.width) where y < rect.maxY {
            buffer.write(line, x: rect.x, y: y, style: style)
            y += 1
        }
        return y
    }

    /// Splits text into lines of at most `width` columns at spaces; a word
    /// wider than a line is split after a URL's or a form's punctuation
    /// where it can be (past the line's middle), else where the line ends.
    public static func wrap(_ text: String, width: Int) -> [String] {
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
                // A word wider than a line breaks after its last `/`, `:`, `=`, `&`, `,`, `-`, `_`, `.` or `?`
                // that fits (a URL or a form between its parts), else where the line ends.
                let fits = line.truncated(toWidth: width, ellipsis: "")
                let breakAfter = fits.lastIndex { "/:=&,-_.?".contains($0) }
                let broken = breakAfter.map { String(fits[...$0]) } ?? fits
                // Not so early that the line is left mostly empty.
                let head = broken.displayWidth * 2 >= width ? broken : fits
                lines.append(head)
                line = String(line.dropFirst(head.count))
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
