/// A grid of cells that panes draw into; a backend shows it on a terminal
/// by writing only the cells that differ from the previous frame.
///
/// Every drawing operation keeps wide characters whole: a cell holding a
/// character two columns wide is always followed, on the same row, by a
/// continuation cell (`symbol == ""`) in the same style, and a continuation
/// never appears anywhere else. Overwriting either half of a wide character
/// turns its other half into a space. `changes(from:)` relies on this.
public struct Buffer: Hashable, Sendable {
    /// Columns and rows.
    public let size: Size
    /// The cells row by row, `size.width` per row.
    public internal(set) var cells: [Cell]

    /// A buffer of `size` with every cell `fill` (which should be one
    /// column wide; anything else is replaced by a space in its style).
    public init(size: Size, fill: Cell = .blank) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        let cell = fill.width == 1 ? fill : Cell(" ", style: fill.style)
        cells = Array(repeating: cell, count: self.size.width * self.size.height)
    }

    /// A blank buffer of `width` columns and `height` rows.
    public init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    /// Columns.
    public var width: Int { size.width }
    /// Rows.
    public var height: Int { size.height }
    /// The whole buffer as a rectangle.
    public var area: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The cell at column `x` of row `y`, both of which must be inside.
    ///
    /// Setting keeps wide characters whole: a wide symbol also claims the
    /// cell to its right (and becomes a space at the right edge); a half
    /// of a wide character that is overwritten leaves a space; setting a
    /// continuation cell (`""`) restyles the wide character it belongs to,
    /// and is a space anywhere else; a zero-width symbol becomes a space.
    public subscript(x: Int, y: Int) -> Cell {
        get {
            precondition(contains(x: x, y: y), "cell (\(x), \(y)) outside a \(size) buffer")
            return cells[y * size.width + x]
        }
        set {
            precondition(contains(x: x, y: y), "cell (\(x), \(y)) outside a \(size) buffer")
            put(newValue, x: x, y: y)
        }
    }

    /// Whether column `x` of row `y` is inside the buffer.
    public func contains(x: Int, y: Int) -> Bool { x >= 0 && x < size.width && y >= 0 && y < size.height }

    /// The text of each row, trailing spaces removed: the golden form of
    /// snapshot tests.
    public var lines: [String] {
        (0..<size.height).map { y in
            let row = cells[y * size.width..<(y + 1) * size.width]
            guard let last = row.lastIndex(where: { $0.glyph != .space }) else {
                return ""
            }
            var line = ""
            line.reserveCapacity(last - row.startIndex + 1)
            for cell in row[...last] { line += cell.symbol }
            return line
        }
    }

    /// The rows joined with newlines.
    public var text: String { lines.joined(separator: "\n") }
}
