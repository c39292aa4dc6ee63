/// One terminal cell: a grapheme cluster and its style. A character two
/// columns wide fills its own cell and marks the next as a continuation.
///
/// The cluster is kept packed (see `Glyph`), so cells are plain values that
/// copy and compare cheaply. Symbols compare byte for byte, not by Unicode
/// canonical equivalence: `"é"` and `"e\u{301}"` are different cells, so a
/// diff sends the terminal exactly the text that was drawn.
public struct Cell: Hashable, Sendable {
    /// The packed cluster and its width.
    var glyph: Glyph
    /// Colours and attributes.
    public var style: Style
    /// Always zero: fills the cell out to 24 bytes with no undefined
    /// padding, so that `changes(from:)` can compare cells as memory.
    private var reserved: (UInt8, UInt8, UInt8) = (0, 0, 0)

    /// A cell showing `symbol` (one grapheme cluster) in `style`.
    public init(_ symbol: String = " ", style: Style = .plain) {
        self.init(glyph: Glyph(symbol), style: style)
    }

    init(glyph: Glyph, style: Style) {
        self.glyph = glyph
        self.style = style
    }

    /// Whether both cells show the same bytes in the same style.
    public static func == (lhs: Cell, rhs: Cell) -> Bool { lhs.glyph == rhs.glyph && lhs.style == rhs.style }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(glyph)
        hasher.combine(style)
    }

    /// One grapheme cluster; `""` for the right half of a wide character.
    public var symbol: String {
        get { glyph.string }
        set { glyph = Glyph(newValue) }
    }

    /// A space in the default style.
    public static let blank = Cell()

    /// The right half of a wide character drawn in `style`.
    public static func continuation(style: Style) -> Cell { Cell(glyph: .empty, style: style) }

    /// Whether this cell is the right half of the wide character to its left.
    public var isContinuation: Bool { glyph.isEmpty }

    /// The columns the symbol takes, as `DisplayWidth.of(_:)` measured it
    /// when it was set: 0 for a continuation, else 1 or 2 (0 also for a
    /// zero-width symbol, which `Buffer` never stores).
    public var width: Int { glyph.width }

    /// `String`s of the 128 ASCII characters, made once so reading the
    /// symbol of an ASCII cell creates no string.
    static let asciiSymbols: [String] = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }
}

extension Cell: CustomStringConvertible {
    /// `Cell("x")`, with the style when it is not plain.
    public var description: String {
        "Cell(\(symbol.debugDescription)" + (style == .plain ? ")" : ", style: \(style))")
    }
}
