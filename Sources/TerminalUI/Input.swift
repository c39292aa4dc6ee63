/// A key as the program sees it, whatever the terminal sent.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    case character(Character)
    /// Control plus a letter, e.g. `.control("c")`.
    case control(Character)
    case enter, escape, backspace, delete, tab, backTab
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)

    /// How the key is written in the key bar and help.
    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "^" + String(c).uppercased()
        case .enter: "⏎"
        case .escape: "esc"
        case .backspace: "⌫"
        case .delete: "del"
        case .tab: "tab"
        case .backTab: "⇧tab"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .function(let n): "F\(n)"
        }
    }
}

/// A mouse event at a cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case press, release, scrollUp, scrollDown }
    public let x: Int
    public let y: Int
    public let kind: Kind
    public init(x: Int, y: Int, kind: Kind) {
        self.x = x
        self.y = y
        self.kind = kind
    }
}

/// What the terminal reports: a key, the mouse, or a new size.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
}
