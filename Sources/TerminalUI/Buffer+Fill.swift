extension Buffer {
    /// Fills `rect` (clipped to the buffer) with `cell`. A wide `cell` fills
    /// column pairs, with a space in its style in an odd last column; a
    /// continuation or zero-width `cell` fills with spaces in its style.
    /// Wide characters cut by the rectangle's sides become spaces.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        let width = cell.width
        let narrow = width == 1 ? cell : Cell(glyph: .space, style: cell.style)
        for y in r.y..<r.maxY {
            let row = y * size.width
            unpairEdges(row: row, from: r.x, to: r.maxX)
            if width == 2 {
                var x = r.x
                while x + 1 < r.maxX {
                    cells[row + x] = cell
                    cells[row + x + 1] = Cell.continuation(style: cell.style)
                    x += 2
                }
                if x < r.maxX { cells[row + x] = narrow }
            } else {
                for x in r.x..<r.maxX { cells[row + x] = narrow }
            }
        }
    }

    /// Fills `rect` with spaces in `style`.
    public mutating func fill(_ rect: Rect, style: Style) { fill(rect, with: Cell(" ", style: style)) }

    /// Gives every cell of `rect` the style `style`, keeping the text. A
    /// wide character the rectangle cuts is restyled whole, so both halves
    /// always share one style.
    public mutating func restyle(_ rect: Rect, style: Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            let row = y * size.width
            for x in r.x..<r.maxX { cells[row + x].style = style }
            if cells[row + r.x].isContinuation { cells[row + r.x - 1].style = style }
            if r.maxX < size.width, cells[row + r.maxX].isContinuation { cells[row + r.maxX].style = style }
        }
    }

    /// Turns the outside halves of wide characters cut by the columns
    /// `from..<to` of a row into spaces, before that span is overwritten.
    private mutating func unpairEdges(row: Int, from: Int, to: Int) {
        if cells[row + from].isContinuation { cells[row + from - 1].glyph = .space }
        if to < size.width, cells[row + to].isContinuation { cells[row + to].glyph = .space }
    }
}
