/// One terminal cell: a grapheme cluster and its style. A character two
/// columns wide fills its own cell and marks the next as a continuation.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster; `""` for the right half of a wide character.
    public var symbol: String
    public var style: Style

    public init(_ symbol: String = " ", style: Style = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// A space in the default style.
    public static let blank = Cell()

    /// Whether this cell is the right half of the wide character to its left.
    public var isContinuation: Bool { symbol.isEmpty }
}
