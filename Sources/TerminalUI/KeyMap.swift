/// One entry of a key-binding table: the keys, what they do, and how the
/// key bar and help describe them. The same table dispatches keys and
/// generates the key bar and help, so the three never disagree.
public struct KeyBinding<Command: Hashable & Sendable>: Sendable {
    public let keys: [Key]
    public let command: Command
    /// A word or two for the key bar ("switch").
    public let label: String
    /// A sentence for the help overlay.
    public let help: String
    /// Whether the key bar shows it (help always does).
    public let inKeyBar: Bool

    public init(_ keys: [Key], _ command: Command, label: String, help: String, inKeyBar: Bool = true) {
        self.keys = keys
        self.command = command
        self.label = label
        self.help = help
        self.inKeyBar = inKeyBar
    }

    /// The keys as shown to people: "↑/k".
    public var keyText: String { keys.map(\.description).joined(separator: "/") }
}

/// A table of bindings. The first binding that lists a key wins; a table
/// for a text field also takes every other printable character as `typing`.
public struct KeyMap<Command: Hashable & Sendable>: Sendable {
    public let bindings: [KeyBinding<Command>]
    /// What a printable character that no binding lists does: it is typed
    /// (into the filter, a PIN). Nil for a table without a text field.
    public let typing: Command?
    private let index: [Key: Command]

    public init(_ bindings: [KeyBinding<Command>], typing: Command? = nil) {
        self.bindings = bindings
        self.typing = typing
        var index: [Key: Command] = [:]
        for binding in bindings {
            for key in binding.keys where index[key] == nil { index[key] = binding.command }
        }
        self.index = index
    }

    /// The command bound to `key`, if any; a printable character no binding
    /// lists is `typing`.
    public func command(for key: Key) -> Command? {
        if let command = index[key] { return command }
        if case .character(let c) = key, !c.isNewline { return typing }
        return nil
    }
}

extension Buffer {
    /// Writes a key bar (`⏎ switch  a add …`) in `rect`, keys in `keyStyle`
    /// and labels in `labelStyle`, items that cannot act now in `dimStyle`.
    /// When not all fit, items before the last two (help and quit, by
    /// convention) are dropped from the end.
    public mutating func drawKeyBar(_ items: [KeyBarItem], in rect: Rect, keyStyle: Style, labelStyle: Style, dimStyle: Style) {
        fill(rect, style: labelStyle)
        func width(_ items: [KeyBarItem]) -> Int {
            items.reduce(-2) { $0 + $1.key.displayWidth + 1 + $1.label.displayWidth + 2 } + 1
        }
        var shown = items
        while shown.count > 2, width(shown) > rect.width { shown.remove(at: shown.count - 3) }
        var x = rect.x + 1
        for item in shown {
            if x + item.key.displayWidth + 1 + item.label.displayWidth > rect.maxX { break }
            x += write(item.key, x: x, y: rect.y, style: item.available ? keyStyle : dimStyle)
            x += write(" " + item.label, x: x, y: rect.y, style: item.available ? labelStyle : dimStyle)
            x += 2
        }
    }
}

/// One item of a key bar: a key, its label, and whether it can act now
/// (one that cannot is drawn dimmed).
public struct KeyBarItem: Hashable, Sendable {
    public let key: String
    public let label: String
    public let available: Bool

    public init(key: String, label: String, available: Bool = true) {
        self.key = key
        self.label = label
        self.available = available
    }
}
