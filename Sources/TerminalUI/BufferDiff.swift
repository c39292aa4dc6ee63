/// A cell to write at a position.
public struct CellChange: Hashable, Sendable {
    public let x: Int
    public let y: Int
    public let cell: Cell
}

extension Buffer {
    /// The cells that differ from `previous`, row by row, left to right;
    /// every cell when `previous` is nil or of another size. Continuation
    /// cells are left out: writing a wide character covers them.
    public func changes(from previous: Buffer?) -> [CellChange] {
        var result: [CellChange] = []
        let width = size.width
        guard let previous, previous.size == size else {
            result.reserveCapacity(cells.count)
            for (index, cell) in cells.enumerated() where !cell.isContinuation {
                result.append(CellChange(x: index % width, y: index / width, cell: cell))
            }
            return result
        }
        for index in cells.indices where cells[index] != previous.cells[index] {
            var at = index
            // A changed continuation means its wide character must be rewritten.
            if cells[at].isContinuation {
                guard at % width > 0 else { continue }
                at -= 1
                if let last = result.last, last.y * width + last.x == at { continue }
            }
            result.append(CellChange(x: at % width, y: at / width, cell: cells[at]))
        }
        return result
    }
}
