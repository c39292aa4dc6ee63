/// Which slot each account id has. Account ids count up from 1 with few
/// gaps, so a table indexed by id is a quarter of a dictionary's size; ids
/// too far apart for one (a store whose accounts came and went by the
/// million, or bytes no store would write) go in a dictionary instead.
struct SlotMap: Sendable {
    /// Slot + 1 of each id (0: none), while the ids are dense.
    private var dense: [Int32] = []
    private var sparse: [Int64: Int32]?
    /// How many ids the table holds.
    private var entries = 0

    subscript(id: Int64) -> Int32? {
        get {
            if let sparse { return sparse[id] }
            guard id >= 0, id < dense.count, dense[Int(id)] != 0 else { return nil }
            return dense[Int(id)] - 1
        }
        set {
            if sparse != nil { return sparse![id] = newValue }
            guard id >= 0, id < Int64(Self.denseLimit(for: entries)) else {
                // Too far for the table: everything moves to a dictionary.
                var moved: [Int64: Int32] = [:]
                for (index, slot) in dense.enumerated() where slot != 0 { moved[Int64(index)] = slot - 1 }
                moved[id] = newValue
                sparse = moved
                dense = []
                return
            }
            if id >= dense.count {
                guard newValue != nil else { return }
                dense.append(contentsOf: repeatElement(0, count: Int(id) - dense.count + 1))
            }
            entries += (newValue == nil ? 0 : 1) - (dense[Int(id)] == 0 ? 0 : 1)
            dense[Int(id)] = newValue.map { $0 + 1 } ?? 0
        }
    }

    /// The largest table kept for `size` ids: they may run a good way past
    /// their count before it is cheaper to hash them.
    private static func denseLimit(for size: Int) -> Int { max(1 << 16, 4 * size) }
}
