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
    /// How a change feed hears of others' writes: listening, or looking at
    /// intervals (through a transaction pooler, so also with the pool's care for one).
    let watching: StoreWatching

    /// Connects and migrates; when `waitForServer` and the server cannot be
    /// reached, it starts anyway: every use until the server answers fails
    /// as `offline`, and the first that reaches it migrates.
    init(
        url: String, waitForServer: Bool = false, deadline: Double = StoreDeadline.standard, watching: StoreWatching = .listen,
        applicationName: String = "switchboard"
    ) throws(StoreError) {
        self.url = url
        self.deadline = deadline
        self.applicationName = applicationName
        self.watching = watching
        switch PGConnection.describe(url) {
        case .success(let server): location = server
        case .failure(let error): throw Self.storeError(error, server: error.server)
        }
        pool = ConnectionPool(url: url, deadline: deadline, applicationName: applicationName, throughPooler: watching != .listen)
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

    /// A read of one statement, outside any transaction (one statement is
    /// one snapshot): one round trip where `read` takes three, for what a
    /// station does on every notification.
    func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try ready()
        return try pool.withConnection { connection in try body(PostgresConnection(connection: connection)) }
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

    /// A transaction-scoped advisory lock of the identity, tried with
    /// `pg_try_advisory_xact_lock` every 20 ms, each try a short
    /// transaction of its own, until one holds it; that transaction is left
    /// open until the lock is released (or the connection dies). So a
    /// station waiting for another's refresh holds no server session
    /// meanwhile (behind PgBouncer's transaction pooling, waiters would
    /// otherwise take every server connection from the refresh they wait for).
    func lockRefreshes(of identity: Identity, timeout: Double) async throws(StoreError) -> RefreshLock {
        let deadline = Date().addingTimeInterval(timeout)
        // Tried on a queue every 20 ms, so no thread waits meanwhile.
        let outcome: Result<RefreshLock, StoreError> = await withCheckedContinuation { continuation in
            tryRefreshLock(of: identity, deadline: deadline, timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try outcome.get()
    }

    /// Tries for the refresh lock now and every 20 ms until it is held, an
    /// error comes, or `deadline` passes; then calls `done` once.
    private func tryRefreshLock(
        of identity: Identity, deadline: Date, timeout: Double, done: @escaping @Sendable (Result<RefreshLock, StoreError>) -> Void
    ) {
        let held: PGConnection?
        do { held = try refreshLockTaken(of: identity) } catch {
            return done(.failure(error))
        }
        if let connection = held {
            let pool = self.pool
            return done(.success(RefreshLock {
                _ = try? connection.execute("ROLLBACK")
                pool.give(connection)
            }))
        }
        guard Date() < deadline else {
            return done(.failure(.unavailable(
                path: location, detail: "another station has been refreshing the tokens of \(identity) for \(Int(timeout)) s; try again")))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            self.tryRefreshLock(of: identity, deadline: deadline, timeout: timeout, done: done)
        }
    }

    /// One try at the refresh lock, in a transaction of its own: the
    /// connection holding it (its transaction open), or nil when another
    /// holds it (the transaction ended, the connection given back).
    private func refreshLockTaken(of identity: Identity) throws(StoreError) -> PGConnection? {
        let connection: PGConnection
        do {
            try ready()
            // Held while a provider answers a refresh (its own timeout bounds that): a silent station's lapses after two minutes.
            // Not on the listener's connection: its notifications would wait for the provider.
            connection = try pool.begin("BEGIN; SET LOCAL idle_in_transaction_session_timeout = 120000", borrowing: false)
        } catch {
            throw storeError(error)
        }
        let taken: PGResult
        do {
            taken = try connection.query(
                "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || $2, 0))",
                [PGParameter(type: PGType.text, text: names.refreshPrefix), PGParameter(type: PGType.text, text: identity.description)])
        } catch {
            _ = try? connection.execute("ROLLBACK")
            pool.give(connection)
            throw storeError(error)
        }
        if taken.text(0, 0) == "t" { return connection }
        _ = try? connection.execute("ROLLBACK")
        pool.give(connection)
        return nil
    }

    func follower() throws(StoreError) -> any ChangeFollower { PostgresFollower(engine: self) }

    func watch(on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) -> any ChangeWatch {
        if case .poll(let seconds) = watching {
            return PollChangeWatch(every: seconds, queue: queue, events: events) { [weak self] () throws(StoreError) -> Int64 in
                guard let self else { throw .unavailable(path: "the store", detail: "closed") }
                do {
                    return try self.readStatement { db in try db.value("SELECT max(id) FROM event", as: Int64.self) } ?? 0
                } catch {
                    throw self.storeError(error)
                }
            }
        }
        return NotifyChangeWatch(pool: pool, queue: queue, events: events, ready: { [weak self] () throws(StoreError) -> String in
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

    func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws -> T? { try engine.readStatement(body) }
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
