import CSQLite
import SwitchboardCore

/// What the chooser's first frame shows from the store — the first
/// accounts, how many there are, who is active in a session and their
/// favourites — read with SQLite's C API, so that the launcher can draw
/// before GRDB and Foundation are loaded.
///
/// It only reads, with `StoreSchema`'s SQL, and only a database that is
/// already Switchboard's at the current schema. Anything else (no file,
/// another application's database, an older or newer schema, any SQLite
/// error) gives nil, and the caller takes the ordinary path, which opens,
/// migrates or reports.
public struct StoreSnapshot: Sendable, Equatable {
    /// The first accounts in the store's order (all of them without a limit).
    public let accounts: [Account]
    /// How many accounts the store holds.
    public let total: Int
    public let active: ActiveAccount
    /// The active person's starred shows.
    public let favourites: Set<String>

    public init(accounts: [Account], total: Int, active: ActiveAccount, favourites: Set<String>) {
        self.accounts = accounts
        self.total = total
        self.active = active
        self.favourites = favourites
    }

    /// Reads the database at `path` as `session` sees it, at most `limit`
    /// accounts (plus the active one), or nil (see above).
    public static func read(path: String, session: SessionKey, limit: Int? = nil) -> StoreSnapshot? {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            return nil
        }
        sqlite3_busy_timeout(handle, 200)
        let connection = Connection(handle: handle)
        guard connection.beginRead() else { return nil }
        defer { connection.execute("COMMIT") }
        guard connection.rows("PRAGMA application_id", { Int32(truncatingIfNeeded: $0.int(0) ?? 0) }) == [StoreSchema.applicationID],
            connection.rows("SELECT identifier FROM grdb_migrations ORDER BY rowid", { $0.text(0) ?? "" }) == StoreSchema.migrations,
            let total = connection.rows(StoreSchema.countSQL, { Int($0.int(0) ?? 0) })?.first,
            var accountRows = connection.rows(
                StoreSchema.accountsSQL(filter: nil, limited: limit != nil), bind: limit.map { [.int(Int64($0))] } ?? [],
                { ($0.int(0) ?? 0, $0.text(1) ?? "") }),
            let sessionRows = connection.rows(
                StoreSchema.activeSQL, bind: [.text(session.rawValue), .text(SessionKey.machine.rawValue)], { ($0.text(0) ?? "", $0.int(1)) })
        else { return nil }
        let activeID = StoreSchema.activeID(sessionRows.map { (key: $0.0, accountId: $0.1) }, session: session)
        let shown = accountRows.count
        if let activeID, !accountRows.contains(where: { $0.0 == activeID.rawValue }) {
            // Active, but not among the first: read it as well, for the status bar and guide.
            guard let rows = connection.rows(
                StoreSchema.accountsSQL(filter: StoreSchema.anyOf(1)), bind: [.int(activeID.rawValue)], { ($0.int(0) ?? 0, $0.text(1) ?? "") })
            else { return nil }
            accountRows += rows
        }
        let ids = accountRows.map { Binding.int($0.0) }
        guard let identityRows = connection.rows(
            StoreSchema.identitiesSQL(filter: limit == nil ? nil : StoreSchema.anyOf(ids.count)), bind: limit == nil ? [] : ids,
            { row in
                (row.int(0) ?? 0, StoreSchema.identity(
                    provider: row.text(1) ?? "", subject: row.text(2) ?? "", displayName: row.text(3), email: row.text(4),
                    emailVerified: (row.int(5) ?? 0) != 0, state: row.text(6) ?? ""))
            })
        else { return nil }
        var identities: [Int64: [LinkedIdentity]] = [:]
        for (account, identity) in identityRows { identities[account, default: []].append(identity) }
        let accounts = StoreSchema.assemble(accountRows.map { (id: $0.0, name: $0.1) }, identities: identities)
        guard let activeID, let person = accounts.first(where: { $0.id == activeID }) else {
            return StoreSnapshot(accounts: Array(accounts.prefix(shown)), total: total, active: .anonymous, favourites: [])
        }
        guard let favourites = connection.rows(StoreSchema.favouritesSQL, bind: [.int(activeID.rawValue)], { $0.text(0) ?? "" })
        else { return nil }
        return StoreSnapshot(accounts: Array(accounts.prefix(shown)), total: total, active: .account(person), favourites: Set(favourites))
    }
}

/// A statement parameter.
private enum Binding {
    case int(Int64)
    case text(String)
}

/// A connection's few calls: one read transaction, statements stepped to the end.
private struct Connection {
    let handle: OpaquePointer

    /// One snapshot for every query that follows.
    func beginRead() -> Bool { execute("BEGIN") && rows("SELECT 1 FROM sqlite_master LIMIT 1", { _ in 0 }) != nil }

    @discardableResult
    func execute(_ sql: String) -> Bool { sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK }

    /// Every row of `sql` made into a value, or nil on any error.
    func rows<T>(_ sql: String, bind: [Binding] = [], _ make: (Row) -> T) -> [T]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in bind.enumerated() {
            let position = Int32(index + 1)
            let status = switch value {
            case .int(let number): sqlite3_bind_int64(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, transient)
            }
            guard status == SQLITE_OK else { return nil }
        }
        var result: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: result.append(make(Row(statement: statement)))
            case SQLITE_DONE: return result
            default: return nil
            }
        }
    }
}

/// The current row of a statement; NULL reads as nil.
private struct Row {
    let statement: OpaquePointer

    func int(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
