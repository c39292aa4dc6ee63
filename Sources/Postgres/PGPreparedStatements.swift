import CLibPQ

/// Which statements a connection has run and which it keeps prepared on
/// the server, by their text and parameter types.
struct PreparedStatements {
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    enum Use: Equatable {
        /// Run it unnamed, as a one-off.
        case unnamed
        /// Prepare it under this name, then run it.
        case prepare(String)
        /// Run the statement prepared under this name.
        case prepared(String)
    }

    /// At most this many statements are kept prepared on one connection,
    /// and this many texts remembered as seen once.
    static let limit = 200, seenLimit = 2_000

    private var seen: Set<Key> = []
    private var names: [Key: String] = [:]
    /// Names are never reused on a connection, so one forgotten stays apart.
    private var next = 0

    /// How to run `sql` with parameters of `types` this time.
    mutating func use(_ sql: String, _ types: [UInt32]) -> Use {
        let key = Key(sql: sql, types: types)
        if let name = names[key] { return .prepared(name) }
        if seen.count >= Self.seenLimit { seen.removeAll() }
        guard names.count < Self.limit, !seen.insert(key).inserted else { return .unnamed }
        next += 1
        return .prepare("switchboard_\(next)")
    }

    /// `sql` is now prepared as `name`.
    mutating func prepared(_ sql: String, _ types: [UInt32], as name: String) {
        names[Key(sql: sql, types: types)] = name
    }

    /// Runs every statement unnamed again until it is prepared anew.
    mutating func forgetPrepared() {
        names.removeAll()
        seen.removeAll()
    }
}
