/// The primitives every drawing operation goes through; each keeps wide
/// characters whole (see `Buffer`).
extension Buffer {
    /// Stores `cell` at (`x`, `y`), inside the buffer, as the subscript's
    /// setter describes.
    mutating func put(_ cell: Cell, x: Int, y: Int) {
        editRow(y) { row in
            if cell.isContinuation {
                if row.cells[row.start + x].isContinuation {  // restyle the wide character it belongs to
                    row.cells[row.start + x - 1].style = cell.style
                    row.cells[row.start + x].style = cell.style
                } else {
                    row.setNarrow(Cell(glyph: .space, style: cell.style), x: x)
                }
                return
            }
            switch cell.width {
            case 1: row.setNarrow(cell, x: x)
            case 2 where x + 1 < row.width: row.setWide(cell, x: x)
            default: row.setNarrow(Cell(glyph: .space, style: cell.style), x: x)
            }
        }
    }

    /// Calls `body` with direct access to row `y` (inside the buffer).
    @inline(__always)
    mutating func editRow<R>(_ y: Int, _ body: (RowEditor) -> R) -> R {
        let width = size.width
        return cells.withUnsafeMutableBufferPointer { cells in
            body(RowEditor(cells: cells, start: y &* width, width: width))
        }
    }
}

/// Stores cells into one row of a buffer, turning halves of wide
/// characters that are overwritten into spaces.
struct RowEditor {
    /// All the buffer's cells.
    let cells: UnsafeMutableBufferPointer<Cell>
    /// The index of the row's first cell.
    let start: Int
    /// The row's length.
    let width: Int

    /// Stores a one-column `cell` at column `x`.
    @inline(__always)
    func setNarrow(_ cell: Cell, x: Int) {
        let index = start &+ x
        if cells[index].isContinuation {
            cells[index &- 1].glyph = .space
        } else if x &+ 1 < width, cells[index &+ 1].isContinuation {
            cells[index &+ 1].glyph = .space
        }
        cells[index] = cell
    }

    /// Stores a two-column `cell` at column `x` and its continuation at
    /// `x + 1`, which must be inside the row.
    @inline(__always)
    func setWide(_ cell: Cell, x: Int) {
        let index = start &+ x
        if cells[index].isContinuation { cells[index &- 1].glyph = .space }
        if x &+ 2 < width, cells[index &+ 2].isContinuation { cells[index &+ 2].glyph = .space }
        cells[index] = cell
        cells[index &+ 1] = Cell.continuation(style: cell.style)
    }
}
