import TerminalUI

/// A help overlay's frame and lines, the chooser's and the board's.
public enum HelpPanel {
    /// A line of help: a key and what it does, a title, or a blank.
    public enum Line: Hashable {
        case key(String, String)
        case title(String)
        case blank
    }

    private static func size(lines: Int, screen: Size) -> Size {
        Size(width: min(76, screen.width - 4), height: min(screen.height - 2, lines + 4))
    }

    /// How many lines show at once: the frame, a blank row above and one below left out.
    public static func rowsShown(lines: Int, screen: Size) -> Int { size(lines: lines, screen: screen).height - 4 }

    /// Draws the lines from `scroll` in a frame centred in `area`; the rows
    /// of `panes` it spans are cleared first (`DialogFrame.draw`).
    public static func draw(
        _ all: [Line], scroll: Int, theme: Theme, screen: Size, over area: Rect, clearing panes: [Rect] = [], into buffer: inout Buffer
    ) {
        let inner = DialogFrame.draw(title: "Keys", size: size(lines: all.count, screen: screen), theme: theme, over: area, clearing: panes, into: &buffer)
        let shown = max(0, inner.height - 2)
        let first = min(max(0, scroll), max(0, all.count - shown))
        for (row, line) in all.dropFirst(first).prefix(shown).enumerated() {
            let y = inner.y + 1 + row
            switch line {
            case .key(let keys, let help):
                buffer.write(keys.truncated(toWidth: 12), x: inner.x, y: y, style: theme[.keyBarKey])
                buffer.write(help.truncated(toWidth: inner.width - 13), x: inner.x + 13, y: y, style: theme[.text])
            case .title(let title):
                buffer.write(title, x: inner.x, y: y, style: theme[.title])
            case .blank:
                break
            }
        }
        // What is scrolled away, marked at the right of the blank rows.
        if first > 0 { buffer.write("↑ more", x: inner.maxX - 6, y: inner.y, style: theme[.muted]) }
        if first + shown < all.count { buffer.write("↓ more", x: inner.maxX - 6, y: inner.maxY - 1, style: theme[.muted]) }
    }

    /// The help overlay's own keys: close, and scroll.
    public static let keys = KeyMap<DialogCommand>([
        KeyBinding([.escape, .character("?"), .character("q"), .enter], .close, label: "close", help: "Close help"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Scroll up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Scroll down", inKeyBar: false),
        KeyBinding([.pageUp], .pageUp, label: "page up", help: "Scroll a page up", inKeyBar: false),
        KeyBinding([.pageDown, .character(" ")], .pageDown, label: "page down", help: "Scroll a page down", inKeyBar: false),
    ])
}
