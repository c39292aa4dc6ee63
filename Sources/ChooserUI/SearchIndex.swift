import Dispatch
import SwitchboardCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Each slot's letters (`FuzzyMatcher.letters`), which let most texts
    /// be passed over, or scored, without reading them.
    private var letters: [UInt64] = []
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
        letters[Int(slot)] = lettersOf(start, end)
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

    /// Positions of the accounts whose text — name, then each identity's
    /// provider, email and display name — holds the characters of `query`
    /// in order (case-insensitive; not necessarily together), best first:
    /// ranked by `FuzzyScore`, ties in the list's order. Searching within
    /// `candidates` — the result for a shorter query this one extends, in
    /// any order — keeps typing fast: whatever matches the longer query
    /// matched the shorter one.
    public func matches(_ query: String, within candidates: [Int32]? = nil) -> [Int32] {
        let query = FuzzyQuery(query)
        guard !query.isEmpty else { return Array(0..<Int32(positions.count)) }
        // The positions to score, in the list's order, so that equal scores keep it; nil for every one.
        let work: [Int32]?
        if let candidates {
            if candidates.count < positions.count / 16 {
                work = Array(Set(candidates.filter { $0 >= 0 && Int($0) < positions.count })).sorted()
            } else {
                var wanted = [Bool](repeating: false, count: positions.count)
                for position in candidates where position >= 0 && Int(position) < positions.count { wanted[Int(position)] = true }
                work = (0..<Int32(positions.count)).filter { wanted[Int($0)] }
            }
        } else {
            work = nil
        }
        let total = work?.count ?? positions.count
        // A long list is scored in parts, one per core, each part's found ones in the list's order.
        let parts = max(1, min(Self.cores, total / Self.partSize))
        let found = UnsafeMutableBufferPointer<[Int32]>.allocate(capacity: parts), scores = UnsafeMutableBufferPointer<[Int32]>.allocate(capacity: parts)
        defer {
            found.deallocate()
            scores.deallocate()
        }
        withBuffers { index in
            let results = PartResults(found: found, scores: scores)
            @Sendable func score(part: Int) {
                let matcher = FuzzyMatcher(query)
                var partFound: [Int32] = [], partScores: [Int32] = []
                for entry in total * part / parts..<total * (part + 1) / parts {
                    let position = work?[entry] ?? Int32(entry)
                    let slot = Int(index.positions[Int(position)])
                    if let score = matcher.score(index.text, start: Int(index.starts[slot]), end: Int(index.ends[slot]), letters: index.letters[slot]) {
                        partFound.append(position)
                        partScores.append(score)
                    }
                }
                (results.found.baseAddress! + part).initialize(to: partFound)
                (results.scores.baseAddress! + part).initialize(to: partScores)
            }
            if parts == 1 { score(part: 0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: score) }
        }
        defer {
            found.deinitialize()
            scores.deinitialize()
        }
        guard parts > 1 else { return Self.ranked(found[0], scores: scores[0]) }
        var allFound: [Int32] = [], allScores: [Int32] = []
        allFound.reserveCapacity(found.reduce(0) { $0 + $1.count })
        allScores.reserveCapacity(allFound.capacity)
        for part in 0..<parts {
            allFound.append(contentsOf: found[part])
            allScores.append(contentsOf: scores[part])
        }
        return Self.ranked(allFound, scores: allScores)
    }

    /// The processors this machine has, which a long search is split over.
    private static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// The fewest accounts worth a part of their own (below it, handing the
    /// part to another thread costs more than it saves).
    private static let partSize = 8192

    /// The score of the account at `position` for `query` (see `matches`,
    /// which ranks by it); nil when it does not match or there is no such
    /// position.
    public func score(_ query: String, at position: Int) -> Int32? {
        guard positions.indices.contains(position) else { return nil }
        let query = FuzzyQuery(query)
        guard !query.isEmpty else { return nil }
        let slot = Int(positions[position])
        return text.withUnsafeBufferPointer { text in
            FuzzyMatcher(query).score(text.baseAddress!, start: Int(starts[slot]), end: Int(ends[slot]), letters: letters[slot])
        }
    }

    /// The index's arrays as pointers, for the time of `body`.
    private func withBuffers<Result>(_ body: (IndexBuffers) -> Result) -> Result {
        text.withUnsafeBufferPointer { text in
            positions.withUnsafeBufferPointer { positions in
                starts.withUnsafeBufferPointer { starts in
                    ends.withUnsafeBufferPointer { ends in
                        letters.withUnsafeBufferPointer { letters in
                            body(IndexBuffers(text: text.baseAddress!, positions: positions, starts: starts, ends: ends, letters: letters))
                        }
                    }
                }
            }
        }
    }

    /// `found` (in the list's order) ordered by `scores`, highest first; a
    /// stable counting sort, since scores fall in a narrow range.
    static func ranked(_ found: [Int32], scores: [Int32]) -> [Int32] {
        guard let low = scores.min(), let high = scores.max() else { return [] }
        let range = Int(high) - Int(low) + 1
        guard range <= 4 * found.count + 4096 else {
            return found.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.map { found[$0] }
        }
        var next = [Int](repeating: 0, count: range + 1)
        for score in scores { next[Int(high) - Int(score) + 1] += 1 }
        for bucket in 1...range { next[bucket] += next[bucket - 1] }
        var ranked = [Int32](repeating: 0, count: found.count)
        for (index, score) in scores.enumerated() {
            let bucket = Int(high) - Int(score)
            ranked[next[bucket]] = found[index]
            next[bucket] += 1
        }
        return ranked
    }

    // MARK: Slots and text

    private mutating func newSlot(_ account: Account) -> Int32 {
        let slot = Int32(ids.count)
        let (start, end) = appendText(of: account)
        ids.append(account.id.rawValue)
        starts.append(start)
        ends.append(end)
        letters.append(lettersOf(start, end))
        slots[account.id.rawValue] = slot
        return slot
    }

    private mutating func empty(_ slot: Int) {
        slots[ids[slot]] = nil
        garbage += Int(ends[slot] - starts[slot])
        (ids[slot], starts[slot], ends[slot], letters[slot]) = (0, 0, 0, 0)
        emptySlots += 1
    }

    /// The letters of the text at `start..<end` (`FuzzyMatcher.letters`).
    private func lettersOf(_ start: Int32, _ end: Int32) -> UInt64 {
        text.withUnsafeBufferPointer { FuzzyMatcher.letters($0.baseAddress!, start: Int(start), end: Int(end)) }
    }

    /// Appends the account's text before the padding; returns where it is.
    /// A field already contained in the account's text (a display name
    /// that is the account's name, a provider twice) is left out: any query
    /// it would match, the text matches already, about as well.
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
    static func occurs(_ needle: ArraySlice<UInt8>, in haystack: ArraySlice<UInt8>) -> Bool {
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
            packed.letters.append(letters[slot])
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
}

/// An index's arrays as the parts of one search read them, on the threads
/// that score them (nothing changes the index while they run).
private struct IndexBuffers: @unchecked Sendable {
    let text: UnsafePointer<UInt8>
    let positions: UnsafeBufferPointer<Int32>, starts: UnsafeBufferPointer<Int32>, ends: UnsafeBufferPointer<Int32>
    let letters: UnsafeBufferPointer<UInt64>
}

/// Where the parts of one search put what they found: each part its own
/// entry of `found` and `scores`, in the list's order.
private struct PartResults: @unchecked Sendable {
    let found: UnsafeMutableBufferPointer<[Int32]>, scores: UnsafeMutableBufferPointer<[Int32]>
}
