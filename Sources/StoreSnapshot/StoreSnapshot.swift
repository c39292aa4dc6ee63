import CSQLite
import SwitchboardCore

/// What the chooser's first frame shows from the store — the accounts, who
/// is active in a session and their favourites — read with SQLite's C API,
/// so that the launcher can draw before GRDB and Foundation are loaded.
///
/// It only reads, with `StoreSchema`'s SQL, and only a database that is
/// already Switchboard's at the current schema. Anything else (no file,
/// another application's database, an older or newer schema, any SQLite
/// error) gives nil, and the caller takes the ordinary path, which opens,
/// migrates or reports.
public struct StoreSnapshot: Sendable, Equatable {
    public let accounts: [Account]
    public let active: ActiveAccount
    /// The active person's starred shows.
    public let favourites: Set<String>

    public init(accounts: [Account], active: ActiveAccount, favourites: Set<String>) {
        self.accounts = accounts
        self.active = active
        self.favourites = favourites
    }

    /// Reads the database at `path` as `session` sees it, or nil (see above).
    public static func read(path: String, session: SessionKey) -> StoreSnapshot? {
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
            let accountRows = connection.rows(StoreSchema.accountsSQL(filter: nil), { ($0.int(0) ?? 0, $0.text(1) ?? "") }),
            let identityRows = connection.rows(StoreSchema.identitiesSQL(filter: nil), { row in
                (row.int(0) ?? 0, StoreSchema.identity(
                    provider: row.text(1) ?? "", subject: row.text(2) ?? "", displayName: row.text(3), email: row.text(4),
                    emailVerified: (row.int(5) ?? 0) != 0, state: row.text(6) ?? ""))
            }),
            let sessionRows = connection.rows(
                StoreSchema.activeSQL, bind: [session.rawValue, SessionKey.machine.rawValue], { ($0.text(0) ?? "", $0.int(1)) })
        else { return nil }
        var identities: [Int64: [LinkedIdentity]] = [:]
        for (account, identity) in identityRows { identities[account, default: []].append(identity) }
        let accounts = StoreSchema.assemble(accountRows.map { (id: $0.0, name: $0.1) }, identities: identities)
        let activeID = StoreSchema.activeID(sessionRows.map { (key: $0.0, accountId: $0.1) }, session: session)
        guard let activeID, let person = accounts.first(where: { $0.id == activeID }) else {
            return StoreSnapshot(accounts: accounts, active: .anonymous, favourites: [])
        }
        guard let favourites = connection.rows(StoreSchema.favouritesSQL, bind: [String(activeID.rawValue)], { $0.text(0) ?? "" })
        else { return nil }
        return StoreSnapshot(accounts: accounts, active: .account(person), favourites: Set(favourites))
    }
}

/// A connection's few calls: one read transaction, statements stepped to the end.
private struct Connection {
    let handle: OpaquePointer

    /// One snapshot for every query that follows.
    func beginRead() -> Bool { execute("BEGIN") && rows("SELECT 1 FROM sqlite_master LIMIT 1", { _ in 0 }) != nil }

    @discardableResult
    func execute(_ sql: String) -> Bool { sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK }

    /// Every row of `sql` made into a value, or nil on any error. `bind`
    /// gives the parameters as text (SQLite compares them by affinity).
    func rows<T>(_ sql: String, bind: [String] = [], _ make: (Row) -> T) -> [T]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in bind.enumerated() where sqlite3_bind_text(statement, Int32(index + 1), value, -1, transient) != SQLITE_OK {
            return nil
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
