import Dispatch
import Foundation
import Postgres
import Synchronization
import SwitchboardCore

/// The shared engine: a PostgreSQL database through libpq, for a fleet of
/// stations. The tables live in the connection's current schema (the
/// database's `public`, or the first of a `search_path` given in the URL).
///
/// - Writes are one transaction each, one at a time across the fleet: each
///   takes a transaction-scoped advisory lock of the schema first, as
///   SQLite's write lock does for one file. So the rules see the same
///   serial world on both engines, and events get their ids in commit
///   order, which lets a reader follow the log by a cursor. A PIN's row is
///   also locked (`FOR UPDATE`) where its tries are counted.
/// - Each write's transaction notifies the schema's channel (`NOTIFY`,
///   delivered at commit); listeners read the event log from their cursor.
/// - Token refreshes are serialised per identity by a transaction-scoped
///   advisory lock, held by a transaction left open during the refresh.
/// - Reads are one `REPEATABLE READ` transaction: one snapshot.
final class PostgresEngine: StoreEngine {
    /// The URL as given: it may carry a password, so it is never shown.
    private let url: String
    let location: String
    var isReadOnly: Bool { false }
    var isShared: Bool { true }
    var readerMarksPath: String? { nil }
    private let pool: ConnectionPool
    /// The schema's names: its advisory lock keys and notification channel.
    let names: SchemaNames
    /// How long one statement may take before the server counts as not answering.
    let deadline: Double
    /// What the server's `pg_stat_activity` calls its connections (`switchboard lab-3`).
    let applicationName: String

    /// Connects and migrates; when `waitForServer` and the server cannot be
    /// reached, it starts anyway: every use until the server answers fails
    /// as `offline`, and the first that reaches it migrates.
    init(url: String, waitForServer: Bool = false, deadline: Double = StoreDeadline.standard, applicationName: String = "switchboard") throws(StoreError) {
        self.url = url
        self.deadline = deadline
        self.applicationName = applicationName
        switch PGConnection.describe(url) {
        case .success(let server): location = server
        case .failure(let error): throw Self.storeError(error, server: error.server)
        }
        pool = ConnectionPool(url: url, deadline: deadline, applicationName: applicationName)
        names = SchemaNames()
        do {
            try ready()
        } catch let error as PGError where waitForServer && error.isOffline {
            // Retried on first use.
        } catch {
            throw storeError(error)
        }
    }

    /// Connects, learns the schema's names and migrates, once.
    private func ready() throws {
        guard !names.isKnown else { return }
        try pool.withConnection { connection in
            try names.learn(connection)
            // Another station may be migrating: its lock is waited for, as long as a migration may take.
            connection.deadline = max(deadline, PostgresMigrations.deadline)
            defer { connection.deadline = deadline }
            let applied = try PostgresMigrations.migrate(connection, names: names, server: location)
            migrated.withLock { $0 += applied }
        }
    }

    /// The migrations this instance applied.
    private let migrated = Mutex<[String]>([])
    var migratedNow: [String] { migrated.withLock { $0 } }

    func write<T>(_ body: (any SQLConnection) throws -> T, signal: (any SQLConnection) throws -> String?) throws -> T {
        try ready()
        return try pool.transaction(begin: "BEGIN; SELECT pg_advisory_xact_lock(\(names.writeLock))") { connection in
            try Self.committing(connection, body) {
                // What the write did rides on the notification, delivered at commit.
                let payload = try signal(PostgresConnection(connection: connection)).flatMap { connection.literal($0) } ?? "''"
                return "SELECT pg_notify('\(names.channel)', \(payload)); COMMIT"
            }
        }
    }

    /// Runs `body` in the transaction open on `connection`, then the
    /// statement `commit` gives (which ends it); on any error, rolls back.
    private static func committing<T>(
        _ connection: PGConnection, _ body: (any SQLConnection) throws -> T, commit: () throws -> String
    ) throws -> T {
        do {
            let result = try body(PostgresConnection(connection: connection))
            try connection.execute(try commit())
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func writeUnannounced<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try ready()
        return try pool.transaction(begin: "BEGIN; SELECT pg_advisory_xact_lock(\(names.writeLock))") { connection in
            try Self.committing(connection, body) { "COMMIT" }
        }
    }

    /// Runs `body` with the connection itself in one transaction, telling
    /// no change feed (under the fleet's write lock unless `locked` is
    /// false): for what only the server's own statements do, such as making
    /// a station's role.
    func administer<T>(locked: Bool = true, _ body: (PGConnection) throws -> T) throws -> T {
        try ready()
        return try pool.transaction(begin: locked ? "BEGIN; SELECT pg_advisory_xact_lock(\(names.writeLock))" : "BEGIN") { connection in
            try Self.committing(connection, { _ in try body(connection) }) { "COMMIT" }
        }
    }

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try ready()
        return try pool.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            try Self.committing(connection, body) { "COMMIT" }
        }
    }

    func storeError(_ error: any Error) -> StoreError { Self.storeError(error, server: location) }

    static func storeError(_ error: any Error, server: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? SQLDecodingError { return .corrupt(path: server, detail: error.description) }
        guard let error = error as? PGError else { return .unavailable(path: server, detail: "\(error)") }
        if error.isOffline {
            let detail = error.kind == .refused || error.kind == .connectionLost || error.detail.isEmpty ? error.detail : "\(error.words): \(error.detail)"
            return .offline(server: error.server, detail: detail)
        }
        switch error.kind {
        case .statement(let state) where state == "42501" && error.detail.contains("row-level security"):
            return .unavailable(
                path: error.server,
                detail: "this station's role acts only on its own station's sessions and rows (the server says which station a role "
                    + "is: switchboard fleet roles); another station's are the operator's to act on. Nothing was changed")
        case .statement(let state) where state == "42501" && !error.detail.hasPrefix("permission denied"):
            // One of the fleet's own rules, kept by the server: its words say why.
            return .unavailable(path: error.server, detail: "\(error.detail); nothing was changed")
        case .statement(let state) where state == "42501":
            return .unavailable(path: error.server, detail: "the role may not do this (\(error.detail)); see docs/FLEET.md for the privileges it needs")
        case .authenticationFailed:
            return .unavailable(
                path: error.server,
                detail: "the server refused this role's login (\(error.detail)). Its password is read from ~/.pgpass (or the file "
                    + "PGPASSFILE or passfile= names); a station whose role was removed (switchboard fleet remove) needs a new one "
                    + "from the store's owner (switchboard fleet add)")
        case .statement:
            return .unavailable(path: error.server, detail: "\(error.detail); nothing was changed")
        default:
            return .unavailable(path: error.server, detail: error.detail.isEmpty ? error.words : "\(error.words): \(error.detail)")
        }
    }

    /// A transaction-scoped advisory lock of the identity, taken with
    /// `pg_try_advisory_xact_lock` every 20 ms in a transaction left open
    /// until the lock is released (or the connection dies).
    func lockRefreshes(of identity: Identity, timeout: Double) async throws(StoreError) -> RefreshLock {
        let deadline = Date().addingTimeInterval(timeout)
        let connection = try beginRefreshLock()
        // Tried on a queue every 20 ms, so no thread waits meanwhile.
        let outcome: Result<RefreshLock, StoreError> = await withCheckedContinuation { continuation in
            tryRefreshLock(on: connection, of: identity, deadline: deadline, timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try outcome.get()
    }

    /// Tries for the refresh lock now and every 20 ms until it is held, an
    /// error comes, or `deadline` passes; then calls `done` once.
    private func tryRefreshLock(
        on connection: PGConnection, of identity: Identity, deadline: Date, timeout: Double,
        done: @escaping @Sendable (Result<RefreshLock, StoreError>) -> Void
    ) {
        let taken: Bool
        do { taken = try refreshLockTaken(on: connection, of: identity, deadline: deadline, timeout: timeout) } catch {
            return done(.failure(error))
        }
        if taken {
            let pool = self.pool
            return done(.success(RefreshLock {
                _ = try? connection.execute("ROLLBACK")
                pool.give(connection)
            }))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            self.tryRefreshLock(on: connection, of: identity, deadline: deadline, timeout: timeout, done: done)
        }
    }

    /// A connection with a transaction open, to hold a refresh lock in.
    private func beginRefreshLock() throws(StoreError) -> PGConnection {
        do {
            try ready()
            // Held while a provider answers a refresh (its own timeout bounds that): a silent station's lapses after two minutes.
            return try pool.begin("BEGIN; SET LOCAL idle_in_transaction_session_timeout = 120000")
        } catch {
            throw storeError(error)
        }
    }

    private func endRefreshLock(on connection: PGConnection) {
        _ = try? connection.execute("ROLLBACK")
        pool.give(connection)
    }

    /// One try at the refresh lock: whether it is held now. Gives the
    /// connection back before it throws (an error, or the time is up).
    private func refreshLockTaken(on connection: PGConnection, of identity: Identity, deadline: Date, timeout: Double) throws(StoreError) -> Bool {
        let taken: PGResult
        do {
            taken = try connection.query(
                "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || $2, 0))",
                [PGParameter(type: PGType.text, text: names.refreshPrefix), PGParameter(type: PGType.text, text: identity.description)])
        } catch {
            endRefreshLock(on: connection)
            throw storeError(error)
        }
        if taken.text(0, 0) == "t" { return true }
        guard Date() < deadline else {
            endRefreshLock(on: connection)
            throw .unavailable(path: location, detail: "another station has been refreshing the tokens of \(identity) for \(Int(timeout)) s; try again")
        }
        return false
    }

    func follower() throws(StoreError) -> any ChangeFollower { PostgresFollower(engine: self) }

    func watch(on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) -> any ChangeWatch {
        NotifyChangeWatch(url: url, server: location, deadline: deadline, applicationName: applicationName, queue: queue, events: events, ready: { [weak self] () throws(StoreError) -> String in
            guard let self else { throw .unavailable(path: "the store", detail: "closed") }
            do { try self.ready() } catch { throw self.storeError(error) }
            return self.names.channel
        })
    }
}

/// A PostgreSQL change reader's reads: through the store's own connections,
/// every time (a notification, not a version number, says when to look).
struct PostgresFollower: ChangeFollower {
    let engine: PostgresEngine

    func readIfChanged<T>(_ body: (any SQLConnection) throws -> T) throws -> T? { try engine.read(body) }
}

/// The names a schema's store goes by on its server, learnt once from the
/// server: the advisory lock keys (writes, migrations) and the notification
/// channel, each derived from the schema's name so that two stores in one
/// database never share one.
final class SchemaNames: Sendable {
    private let known = Mutex<(schema: String, writeLock: Int64, migrationLock: Int64, channel: String)?>(nil)

    var isKnown: Bool { known.withLock { $0 != nil } }
    var schema: String { known.withLock { $0?.schema ?? "" } }
    var writeLock: Int64 { known.withLock { $0?.writeLock ?? 0 } }
    var migrationLock: Int64 { known.withLock { $0?.migrationLock ?? 0 } }
    var channel: String { known.withLock { $0?.channel ?? "" } }
    /// What a refresh lock's key is hashed from, before the identity.
    var refreshPrefix: String { "switchboard/refresh/" + schema + "/" }

    func learn(_ connection: PGConnection) throws {
        let result = try connection.query("""
            SELECT current_schema(), hashtextextended('switchboard/write/' || current_schema(), 0),
              hashtextextended('switchboard/migrate/' || current_schema(), 0), 'switchboard_' || substr(md5(current_schema()), 1, 16)
            """)
        guard let schema = result.text(0, 0) else {
            throw PGError(.other, server: connection.server, detail: "no schema to keep the tables in: the search_path names none that exists")
        }
        guard let write = result.text(0, 1).flatMap({ Int64($0) }), let migrate = result.text(0, 2).flatMap({ Int64($0) }),
            let channel = result.text(0, 3)
        else { throw PGError(.other, server: connection.server, detail: "unexpected answer naming the schema") }
        known.withLock { $0 = (schema, write, migrate, channel) }
    }
}

/// Open connections kept for reuse: one, so that a station at rest holds
/// two (this one and its listener's) and a default server of 100
/// connections carries some 45 stations. More are opened while calls
/// overlap (a token refresh beside a switch) and closed when they end. A
/// connection is used by one caller at a time; one that broke or was left
/// in a transaction is closed, not kept.
final class ConnectionPool: Sendable {
    private let url: String
    private let deadline: Double
    private let applicationName: String
    private let idle = Mutex<[PGConnection]>([])
    /// How many idle connections are kept.
    static let keep = 1

    init(url: String, deadline: Double, applicationName: String) {
        self.url = url
        self.deadline = deadline
        self.applicationName = applicationName
    }

    deinit { idle.withLock { $0.forEach { $0.close() } } }

    /// An idle connection that still works (as far as can be told without
    /// a round trip), else a new one; and whether it was kept from before.
    private func taking() throws(PGError) -> (PGConnection, reused: Bool) {
        while let connection = idle.withLock({ $0.popLast() }) {
            // A server that went away has left an end of file (or a farewell) to read.
            if (try? connection.consumeInput()) != nil, connection.isConnected { return (connection, true) }
            connection.close()
        }
        return (try PGConnection.connect(url, deadline: deadline, applicationName: applicationName), false)
    }

    /// A connection for a caller that keeps it a while (`give` it back).
    func take() throws(PGError) -> PGConnection { try taking().0 }

    func give(_ connection: PGConnection) {
        guard connection.isConnected, connection.isIdle else { return connection.close() }
        let kept = idle.withLock { idle in
            guard idle.count < Self.keep else { return false }
            idle.append(connection)
            return true
        }
        if !kept { connection.close() }
    }

    /// Runs `begin` and then `body` on a connection, then keeps it for the
    /// next if it may. A kept connection found gone at `begin` (the server
    /// restarted since) is replaced by a new one, and the others kept are
    /// dropped: nothing was done on it, so nothing is done twice.
    func transaction<T>(begin: String, _ body: (PGConnection) throws -> T) throws -> T {
        let connection = try self.begin(begin)
        defer { give(connection) }
        return try body(connection)
    }

    /// A connection on which `begin` ran, for the caller to `give` back
    /// (see `transaction(begin:_:)`).
    func begin(_ begin: String) throws(PGError) -> PGConnection {
        let (connection, reused) = try taking()
        do {
            try connection.execute(begin)
            return connection
        } catch where reused && error.isOffline {
            connection.close()
            idle.withLock { idle in
                idle.forEach { $0.close() }
                idle.removeAll()
            }
        } catch {
            give(connection)
            throw error
        }
        let fresh = try PGConnection.connect(url, deadline: deadline, applicationName: applicationName)
        do { try fresh.execute(begin) } catch {
            fresh.close()
            throw error
        }
        return fresh
    }

    /// Runs `body` with a connection, then keeps it for the next if it may.
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        let connection = try take()
        defer { give(connection) }
        return try body(connection)
    }
}
