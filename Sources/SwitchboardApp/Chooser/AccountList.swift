import SwitchboardCore

/// The accounts as loaded from the store, in the store's order (recent and
/// frequent first), with a lower-cased search key per account so filtering
/// 100,000 accounts is a byte scan, not a string comparison per keystroke.
public struct AccountList: Sendable {
    public let accounts: [Account]
    /// Names, emails and providers of each account, lower-cased, as UTF-8.
    private let keys: [[UInt8]]

    public init(_ accounts: [Account]) {
        self.accounts = accounts
        keys = accounts.map { account in
            var key = account.name.lowercased()
            for identity in account.identities {
                key += "\u{1F}" + identity.provider.rawValue.lowercased()
                if let email = identity.email { key += "\u{1F}" + email.lowercased() }
                if let name = identity.displayName { key += "\u{1F}" + name.lowercased() }
            }
            return Array(key.utf8)
        }
    }

    public static let empty = AccountList([])

    public var count: Int { accounts.count }

    /// Indices of the accounts whose name, email or provider contains `query`
    /// (case-insensitive). Searching within `candidates` — the result for a
    /// shorter query this one extends — keeps typing fast.
    public func matches(_ query: String, within candidates: [Int]? = nil) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return Array(accounts.indices) }
        var result: [Int] = []
        if let candidates {
            for index in candidates where Self.contains(keys[index], needle) { result.append(index) }
        } else {
            for index in keys.indices where Self.contains(keys[index], needle) { result.append(index) }
        }
        return result
    }

    /// Whether `haystack` contains `needle` (non-empty) as a byte sequence.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let n = needle.count, h = haystack.count
        guard n <= h else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { nee in
                let first = nee[0]
                var i = 0
                while i <= h - n {
                    if hay[i] == first {
                        var j = 1
                        while j < n && hay[i + j] == nee[j] { j += 1 }
                        if j == n { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    public func index(of id: AccountID) -> Int? { accounts.firstIndex { $0.id == id } }
}
