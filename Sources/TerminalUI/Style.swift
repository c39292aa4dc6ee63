/// A terminal colour: the terminal's own default, or an entry of the
/// 256-colour palette (0–7 the basic colours, 8–15 their bright forms).
public enum Color: Hashable, Sendable {
    /// The terminal's default foreground or background.
    case `default`
    /// A palette entry, 0–255.
    case palette(UInt8)

    public static let black = Color.palette(0), red = Color.palette(1), green = Color.palette(2),
        yellow = Color.palette(3), blue = Color.palette(4), magenta = Color.palette(5), cyan = Color.palette(6),
        white = Color.palette(7)
}

/// Text attributes a terminal can show.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)

    /// Every attribute with its name in theme files, in a fixed order.
    public static let named: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("italic", .italic), ("underline", .underline), ("reverse", .reverse),
    ]
}

/// How a cell looks: colours and attributes.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style with `attributes` added.
    public func adding(_ attributes: TextAttributes) -> Style {
        var style = self
        style.attributes.formUnion(attributes)
        return style
    }

    /// This style with `top` laid over it: each of `top`'s colours that is
    /// not `.default` replaces this one's, and its attributes are added.
    public func overlaid(by top: Style) -> Style {
        Style(
            foreground: top.foreground == .default ? foreground : top.foreground,
            background: top.background == .default ? background : top.background,
            attributes: attributes.union(top.attributes))
    }
}
