import SwitchboardCore

/// The accounts as loaded from the store, in the store's order (recent and
/// frequent first), with a lower-cased search key per account so filtering
/// 100,000 accounts is a byte scan, not a string comparison per keystroke.
public struct AccountList: Sendable {
    public let accounts: [Account]
    /// The accounts that ask for a PIN before a switch (the lock mark).
    public let protected: Set<AccountID>
    /// Names, emails and providers of every account, lower-cased, as UTF-8,
    /// one after another: account `i`'s are `text[starts[i]..<starts[i + 1]]`.
    /// One buffer rather than an array per account, so a scan streams
    /// through memory; it ends with `padding` zero bytes so the search may
    /// read a whole vector past any key.
    private let text: [UInt8]
    private let starts: [Int]
    private static let padding = 32

    /// The list of `accounts`, in the order given; `protected` are those with a PIN.
    public init(_ accounts: [Account], protected: Set<AccountID> = []) {
        self.accounts = accounts
        self.protected = protected
        var text: [UInt8] = [], starts: [Int] = []
        starts.reserveCapacity(accounts.count + 1)
        for account in accounts {
            starts.append(text.count)
            Self.append(account.name, to: &text)
            for identity in account.identities {
                Self.append(identity.provider.rawValue, to: &text, separated: true)
                if let email = identity.email { Self.append(email, to: &text, separated: true) }
                if let name = identity.displayName { Self.append(name, to: &text, separated: true) }
            }
        }
        starts.append(text.count)
        text.append(contentsOf: repeatElement(0, count: Self.padding))
        self.text = text
        self.starts = starts
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

    public static let empty = AccountList([])

    /// The same accounts with `id` first, as the store lists them right
    /// after a switch to it (most recent use first).
    public func movingToFront(_ id: AccountID) -> AccountList {
        guard let index = index(of: id), index > 0 else { return self }
        var reordered = accounts
        reordered.insert(reordered.remove(at: index), at: 0)
        return AccountList(reordered, protected: protected)
    }

    /// The same accounts by name (case folded; equal names by id): a
    /// station's order, which says nothing about who used it last.
    public func sortedByName() -> AccountList {
        let sorted = accounts.map { (key: $0.name.lowercased(), account: $0) }
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.account.id < $1.account.id }
        return AccountList(sorted.map(\.account), protected: protected)
    }

    /// How many accounts the store holds.
    public var count: Int { accounts.count }

    /// Indices of the accounts whose name, email or provider contains `query`
    /// (case-insensitive). Searching within `candidates` — the result for a
    /// shorter query this one extends — keeps typing fast.
    public func matches(_ query: String, within candidates: [Int]? = nil) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return Array(accounts.indices) }
        return text.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                let base = text.baseAddress!
                var result: [Int] = []
                if let candidates {
                    for index in candidates where Self.contains(base, starts[index], starts[index + 1], needle) { result.append(index) }
                } else {
                    for index in accounts.indices where Self.contains(base, starts[index], starts[index + 1], needle) {
                        result.append(index)
                    }
                }
                return result
            }
        }
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

    public func index(of id: AccountID) -> Int? { accounts.firstIndex { $0.id == id } }
}
