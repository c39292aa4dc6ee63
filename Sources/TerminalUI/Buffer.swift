/// A grid of cells that panes draw into; a backend shows it on a terminal
/// by writing only the cells that differ from the previous frame.
public struct Buffer: Hashable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: fill, count: self.size.width * self.size.height)
    }

    public init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    public var width: Int { size.width }
    public var height: Int { size.height }
    /// The whole buffer as a rectangle.
    public var area: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set { cells[y * size.width + x] = newValue }
    }

    /// Fills `rect` (clipped to the buffer) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            let start = y * size.width
            for x in r.x..<r.maxX { cells[start + x] = cell }
        }
    }

    /// Fills `rect` with spaces in `style`.
    public mutating func fill(_ rect: Rect, style: Style) { fill(rect, with: Cell(" ", style: style)) }

    /// Gives every cell of `rect` the style `style`, keeping the text.
    public mutating func restyle(_ rect: Rect, style: Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { cells[y * size.width + x].style = style }
        }
    }

    /// Writes `text` from column `x` of row `y`, one grapheme cluster per
    /// cell (two for wide ones), and returns the columns used. Stops at the
    /// buffer's edge or after `limit` columns; a wide character that would
    /// not fit whole is left out. Control characters are never written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int? = nil) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let end = min(size.width, limit.map { x + max(0, $0) } ?? size.width)
        var column = x
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if column + width > end { break }
            if column >= 0 {
                clearWide(at: column, y: y)
                cells[y * size.width + column] = Cell(String(character), style: style)
                if width == 2 {
                    clearWide(at: column + 1, y: y)
                    cells[y * size.width + column + 1] = Cell("", style: style)
                }
            }
            column += width
        }
        return column - x
    }

    /// Overwriting half of a wide character blanks its other half, so the
    /// grid never holds an orphaned half.
    private mutating func clearWide(at x: Int, y: Int) {
        let index = y * size.width + x
        if cells[index].isContinuation, x > 0 {
            cells[index - 1].symbol = " "
        } else if x + 1 < size.width, cells[index + 1].isContinuation,
            DisplayWidth.of(cells[index].symbol) == 2
        {
            cells[index + 1].symbol = " "
        }
    }

    /// The text of each row, trailing spaces removed: the golden form of
    /// snapshot tests.
    public var lines: [String] {
        (0..<size.height).map { y in
            var line = ""
            for x in 0..<size.width {
                let cell = cells[y * size.width + x]
                if !cell.isContinuation { line += cell.symbol }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The rows joined with newlines.
    public var text: String { lines.joined(separator: "\n") }
}
