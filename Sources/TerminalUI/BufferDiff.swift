/// A cell to write at a position.
public struct CellChange: Hashable, Sendable {
    /// Column.
    public let x: Int
    /// Row.
    public let y: Int
    /// What to show there; never a continuation cell.
    public let cell: Cell

    /// A change putting `cell` at column `x` of row `y`.
    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

extension Buffer {
    /// The cells to write, row by row and left to right, to turn a terminal
    /// showing `previous` into one showing this buffer; every cell when
    /// `previous` is nil or of another size. Nothing when they are equal.
    ///
    /// Continuation cells are left out: writing a wide character covers
    /// them, and a changed continuation rewrites its wide character. The
    /// list is exact even where wide and narrow characters replace each
    /// other: a terminal blanks the other half of a wide character that is
    /// partly overwritten, and every cell so blanked has changed, so it is
    /// in the list after the write that blanks it.
    public func changes(from previous: Buffer?) -> [CellChange] {
        let width = size.width
        guard let previous, previous.size == size else {
            var result: [CellChange] = []
            result.reserveCapacity(cells.count)
            for (index, cell) in cells.enumerated() where !cell.isContinuation {
                result.append(CellChange(x: index % width, y: index / width, cell: cell))
            }
            return result
        }
        var result: [CellChange] = []
        cells.withUnsafeBufferPointer { new in
            previous.cells.withUnsafeBufferPointer { old in
                var lastEmitted = -1
                for index in 0..<new.count where !Self.sameMemory(new, old, at: index) && new[index] != old[index] {
                    var at = index
                    if new[at].isContinuation {  // rewrite the wide character it belongs to
                        at -= 1
                        if at == lastEmitted { continue }
                    }
                    result.append(CellChange(x: at % width, y: at / width, cell: new[at]))
                    lastEmitted = at
                }
            }
        }
        return result
    }

    /// Whether the cells at `index` are the same bytes: three word loads
    /// instead of a field-by-field comparison. Equal bytes always mean equal
    /// cells; the reverse need not hold (hence `==` after it), though with
    /// `Cell`'s layout of 24 fully defined bytes it almost always does.
    @inline(__always)
    private static func sameMemory(
        _ new: UnsafeBufferPointer<Cell>, _ old: UnsafeBufferPointer<Cell>, at index: Int
    ) -> Bool {
        guard MemoryLayout<Cell>.size == 24, MemoryLayout<Cell>.stride == 24 else { return false }
        let a = UnsafeRawPointer(new.baseAddress! + index), b = UnsafeRawPointer(old.baseAddress! + index)
        return a.load(as: UInt64.self) == b.load(as: UInt64.self)
            && a.load(fromByteOffset: 8, as: UInt64.self) == b.load(fromByteOffset: 8, as: UInt64.self)
            && a.load(fromByteOffset: 16, as: UInt64.self) == b.load(fromByteOffset: 16, as: UInt64.self)
    }
}
