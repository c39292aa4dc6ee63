import SwitchboardCore

/// The filter's index: every account's searchable text (its name, and each
/// identity's provider, email and display name, lower-cased) in one buffer,
/// and the accounts' positions in the list's order. Built once, from a
/// stream of the store's accounts, then kept up to date a few accounts at a
/// time from the change feed (`update`, `reorder`); never rebuilt per key.
///
/// Each account has a slot: its id and where its text is. Text replaced
/// leaves garbage behind, and an account gone leaves an empty slot; both
/// are squeezed out when they make up half the index.
public struct SearchIndex: Sendable {
    /// The order `positions` follow.
    public let order: AccountOrder
    /// Each slot's account id (0 for an empty slot: ids start at 1).
    private var ids: [Int64] = []
    /// Every slot's text, one after another, ending with `padding` zero
    /// bytes so that the search may read a whole vector past any text.
    private var text: [UInt8] = Array(repeating: 0, count: SearchIndex.padding)
    private var starts: [Int32] = []
    private var ends: [Int32] = []
    /// The slot of each id.
    private var slots = SlotMap()
    /// The slots in the list's order.
    private var positions: [Int32] = []
    /// Bytes of text and slots no longer used.
    private var garbage = 0, emptySlots = 0
    private static let padding = 32

    /// An empty index for a list in `order`.
    public init(order: AccountOrder) { self.order = order }

    /// The index of `accounts`, in the order given, which is `order`.
    public init(_ accounts: [Account], order: AccountOrder) {
        self.order = order
        ids.reserveCapacity(accounts.count)
        for account in accounts { append(account) }
    }

    /// How many accounts it has.
    public var count: Int { positions.count }

    /// The account at `position` of the list.
    public func id(at position: Int) -> AccountID? {
        positions.indices.contains(position) ? AccountID(ids[Int(positions[position])]) : nil
    }

    /// Whether the account is in the index.
    public func contains(_ id: AccountID) -> Bool { slots[id.rawValue] != nil }

    /// Where the account stands in the list.
    public func position(of id: AccountID) -> Int? {
        guard let slot = slots[id.rawValue] else { return nil }
        return positions.firstIndex(of: slot)
    }

    /// Adds an account after the last (building the index in order).
    public mutating func append(_ account: Account) {
        guard slots[account.id.rawValue] == nil else { return update(account) }
        let slot = newSlot(account)
        positions.append(slot)
    }

    /// The account's text as it is now; an account not in the index gets a
    /// slot, and a place in the list at the next `reorder`.
    public mutating func update(_ account: Account) {
        guard let slot = slots[account.id.rawValue] else {
            _ = newSlot(account)
            return
        }
        replaceText(of: slot, with: account)
        compactIfWasteful()
    }

    /// The slot's text replaced by the account's; the old text is garbage.
    private mutating func replaceText(of slot: Int32, with account: Account) {
        garbage += Int(ends[Int(slot)] - starts[Int(slot)])
        let (start, end) = appendText(of: account)
        (starts[Int(slot)], ends[Int(slot)]) = (start, end)
    }

    /// Puts the accounts in the order of `ids`, the store's list; those
    /// not listed are gone, and listed ones without a slot are left out
    /// (give them to `update` first).
    public mutating func reorder(_ listed: [AccountID]) {
        var seen = [Bool](repeating: false, count: ids.count)
        var reordered: [Int32] = []
        reordered.reserveCapacity(listed.count)
        for id in listed {
            guard let slot = slots[id.rawValue], !seen[Int(slot)] else { continue }
            seen[Int(slot)] = true
            reordered.append(slot)
        }
        for slot in ids.indices where !seen[slot] && ids[slot] != 0 { empty(slot) }
        positions = reordered
        compactIfWasteful()
    }

    /// Where the accounts stand after the store changed, worked out from a
    /// copy of this index (off the main actor, `changes(listing:reread:)`)
    /// and then applied to the index itself in place (`apply`): the copy
    /// only reads, so no buffer is copied.
    public struct Changes: Sendable {
        /// How many slots the index had: the added accounts take the next ones.
        let slotCount: Int
        /// The slots in the list's new order.
        let positions: [Int32]
        /// Accounts new to the index, in their slots' order.
        let added: [Account]
        /// Accounts whose text is read again.
        let changed: [Account]
    }

    /// The changes that bring this index to the store's list `listed`,
    /// with `reread` the accounts read again (those changed, and those new
    /// to it); an account listed but neither known nor read is left out.
    public func changes(listing listed: [AccountID], reread: [Account]) -> Changes {
        let read = Dictionary(reread.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        var added: [Account] = [], changed: [Account] = []
        var addedSlots: [AccountID: Int32] = [:]
        var positions: [Int32] = []
        positions.reserveCapacity(listed.count)
        for id in listed {
            if let slot = slots[id.rawValue] {
                positions.append(slot)
                if let account = read[id] { changed.append(account) }
            } else if let slot = addedSlots[id] {
                positions.append(slot)
            } else if let account = read[id] {
                let slot = Int32(ids.count + added.count)
                addedSlots[id] = slot
                added.append(account)
                positions.append(slot)
            }
        }
        return Changes(slotCount: ids.count, positions: positions, added: added, changed: changed)
    }

    /// Applies `changes` worked out from a copy of this index; false (and
    /// nothing done) when the index gained slots since the copy was made.
    public mutating func apply(_ changes: Changes) -> Bool {
        guard changes.slotCount == ids.count else { return false }
        for account in changes.added { _ = newSlot(account) }
        for account in changes.changed { if let slot = slots[account.id.rawValue] { replaceText(of: slot, with: account) } }
        var seen = [Bool](repeating: false, count: ids.count)
        for slot in changes.positions { seen[Int(slot)] = true }
        for slot in ids.indices where !seen[slot] && ids[slot] != 0 { empty(slot) }
        positions = changes.positions
        compactIfWasteful()
        return true
    }

    /// Moves the account to the top of the list (a switch to it, in the
    /// order by use); false when it is not in the index.
    @discardableResult
    public mutating func moveToFront(_ id: AccountID) -> Bool {
        guard let slot = slots[id.rawValue], let position = positions.firstIndex(of: slot) else { return false }
        positions.remove(at: position)
        positions.insert(slot, at: 0)
        return true
    }

    /// Positions of the accounts whose name, email, provider or display
    /// name contains `query` (case-insensitive), in the list's order.
    /// Searching within `candidates` — the result for a shorter query this
    /// one extends — keeps typing fast.
    public func matches(_ query: String, within candidates: [Int32]? = nil) -> [Int32] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return Array(0..<Int32(positions.count)) }
        return text.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                let base = text.baseAddress!
                var result: [Int32] = []
                func check(_ position: Int32) {
                    let slot = Int(positions[Int(position)])
                    if Self.contains(base, Int(starts[slot]), Int(ends[slot]), needle) { result.append(position) }
                }
                if let candidates {
                    for position in candidates where Int(position) < positions.count { check(position) }
                } else {
                    for position in 0..<Int32(positions.count) { check(position) }
                }
                return result
            }
        }
    }

    // MARK: Slots and text

    private mutating func newSlot(_ account: Account) -> Int32 {
        let slot = Int32(ids.count)
        let (start, end) = appendText(of: account)
        ids.append(account.id.rawValue)
        starts.append(start)
        ends.append(end)
        slots[account.id.rawValue] = slot
        return slot
    }

    private mutating func empty(_ slot: Int) {
        slots[ids[slot]] = nil
        garbage += Int(ends[slot] - starts[slot])
        (ids[slot], starts[slot], ends[slot]) = (0, 0, 0)
        emptySlots += 1
    }

    /// Appends the account's text before the padding; returns where it is.
    /// A field already contained in the account's text (a display name
    /// that is the account's name, a provider twice) is left out: any query
    /// it would match, the text matches already.
    private mutating func appendText(of account: Account) -> (Int32, Int32) {
        text.removeLast(Self.padding)
        let start = text.count
        Self.append(account.name, to: &text)
        for identity in account.identities {
            for field in [identity.provider.rawValue, identity.email, identity.displayName] {
                guard let field else { continue }
                let mark = text.count
                Self.append(field, to: &text, separated: true)
                if Self.occurs(text[(mark + 1)...], in: text[start..<mark]) { text.removeSubrange(mark...) }
            }
        }
        let end = text.count
        text.append(contentsOf: repeatElement(0, count: Self.padding))
        return (Int32(start), Int32(end))
    }

    /// Whether `needle` occurs in `haystack` (a plain search: an account's text is short).
    private static func occurs(_ needle: ArraySlice<UInt8>, in haystack: ArraySlice<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// Squeezes out garbage and empty slots once they are half the index.
    private mutating func compactIfWasteful() {
        guard garbage > 4096 && garbage * 2 > text.count || emptySlots > 64 && emptySlots * 2 > ids.count else { return }
        var packed = SearchIndex(order: order)
        packed.text.removeLast(Self.padding)
        var renumbered = [Int32](repeating: -1, count: ids.count)
        for slot in ids.indices where ids[slot] != 0 {
            renumbered[slot] = Int32(packed.ids.count)
            let start = Int32(packed.text.count)
            packed.text.append(contentsOf: text[Int(starts[slot])..<Int(ends[slot])])
            packed.ids.append(ids[slot])
            packed.starts.append(start)
            packed.ends.append(Int32(packed.text.count))
            packed.slots[ids[slot]] = renumbered[slot]
        }
        packed.text.append(contentsOf: repeatElement(0, count: Self.padding))
        packed.positions = positions.map { renumbered[Int($0)] }
        self = packed
    }

    /// Appends `field` lower-cased, after a U+001F separator if `separated`.
    /// ASCII (most names, every email and provider) is lower-cased byte by
    /// byte, without the Unicode tables `lowercased()` consults.
    private static func append(_ field: String, to text: inout [UInt8], separated: Bool = false) {
        if separated { text.append(0x1F) }
        var field = field
        let ascii = field.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            for byte in bytes { text.append(byte &- 0x41 < 26 ? byte | 0x20 : byte) }
            return true
        }
        if !ascii { text.append(contentsOf: field.lowercased().utf8) }
    }

    /// Whether `base[start..<end]` contains `needle` (non-empty). Sixteen
    /// positions at a time: a position is looked at only when both the
    /// needle's first and last bytes are where they would be (Muła's
    /// "SIMD-friendly" substring search); may read up to 15 bytes past `end`.
    @inline(__always)
    static func contains(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = needle.count
        let lastStart = end - n
        guard lastStart >= start else { return false }
        let first = SIMD16<UInt8>(repeating: needle[0]), last = SIMD16<UInt8>(repeating: needle[n - 1])
        var position = start
        while position <= lastStart {
            let heads = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let tails = UnsafeRawPointer(base + position + n - 1).loadUnaligned(as: SIMD16<UInt8>.self)
            let hits = (heads .== first) .& (tails .== last)
            if any(hits) {
                for lane in 0..<min(16, lastStart - position + 1) where hits[lane] {
                    var j = 1
                    while j < n - 1 && base[position + lane + j] == needle[j] { j += 1 }
                    if j >= n - 1 { return true }
                }
            }
            position += 16
        }
        return false
    }
}

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
