import TerminalUI

/// The filter line at the foot of a list (the chooser's accounts, the
/// board's stations): `/` starts typing into it, each key narrows the list
/// as it is typed, Enter keeps it, Esc clears it. One rule for typing and
/// one for drawing, so that every list filters alike.
public enum FilterLine {
    /// The longest filter kept, in bytes (UTF-8): more than any name or
    /// address. A paste goes on arriving key by key; past the limit it is
    /// dropped at once, without a copy of the filter or a search per key.
    public static let limit = 256

    /// While typing a filter: every other character is typed into it.
    public static let keys = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "keep filter", help: "Stop typing and keep the filter"),
        KeyBinding([.escape], .cancel, label: "clear", help: "Clear the filter"),
        KeyBinding([.backspace, .delete], .erase, label: "erase", help: "Erase the last character", inKeyBar: false),
        KeyBinding([.up], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down], .down, label: "down", help: "Move down", inKeyBar: false),
    ], typing: .type)

    /// What a key does to a filter being typed.
    public enum Edit: Hashable, Sendable {
        /// The filter is now this text (typed into, or erased).
        case text(String)
        /// Typing stops; the filter is kept, or cleared (Esc).
        case stop(clear: Bool)
        /// The selection moves by one row, up (-1) or down (1).
        case move(Int)
        /// Nothing (a character past the limit, an erase of nothing).
        case none
    }

    /// What `command` (from `keys`; `key` for the character typed) makes of `text`.
    public static func edit(_ text: String, by command: DialogCommand, key: Key) -> Edit {
        switch command {
        case .type:
            guard case .character(let c) = key, text.utf8.count + c.utf8.count <= limit else { return .none }
            return .text(text + String(c))
        case .erase: return text.isEmpty ? .none : .text(String(text.dropLast()))
        case .confirm: return .stop(clear: false)
        case .cancel: return .stop(clear: true)
        case .up: return .move(-1)
        case .down: return .move(1)
        default: return .none
        }
    }

    /// How many pass the filter: "3 accounts" with none, "2 of 3" with one.
    public static func count(passing: Int, of total: Int, filtered: Bool, one: String, many: String) -> String {
        filtered ? "\(passing) of \(total)" : (total == 1 ? "1 \(one)" : "\(total) \(many)")
    }

    /// Draws the line in `rect`: the filter with a cursor while typed (its
    /// end in view), "/ filter" when there is none, and `count` at the right.
    public static func draw(_ text: String, typing: Bool, count: String, theme: Theme, in rect: Rect, into buffer: inout Buffer) {
        if typing || !text.isEmpty {
            let cursor = typing ? "▏" : ""
            let room = rect.width - count.displayWidth - 3
            // The end, where the cursor is, stays in view: cut by columns from the start.
            let shown = ("/" + text.displaySafe).truncatedFromStart(toWidth: room - 1 - cursor.displayWidth)
            buffer.write(" " + shown + cursor, x: rect.x, y: rect.y, style: theme[.filter], limit: room)
        } else {
            buffer.write(" / filter", x: rect.x, y: rect.y, style: theme[.muted])
        }
        buffer.write(count, x: rect.maxX - count.displayWidth - 1, y: rect.y, style: theme[.muted])
    }
}
