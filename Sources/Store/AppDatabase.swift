import Foundation
import PINHash
import Postgres
import Synchronization
import SwitchboardCore

/// The one owner of Switchboard's store: the named reads and writes, over
/// either engine. The embedded default is one SQLite file
/// (`init(path:access:)`); a fleet shares a PostgreSQL database
/// (`init(url:)`). The rules are the same on both; every write is one
/// transaction.
public final class AppDatabase: Sendable {
    /// How a command means to use the database.
    public enum Access: Sendable {
        /// Reads and writes; the folder and the file are made when missing.
        case readWrite
        /// Only reads: a file (or folder) this process may not write is
        /// opened read-only instead of refused. A missing file is still made.
        case readOnlyIfUnwritable
    }

    /// Where the store is, for messages: the database file's path, or the
    /// server as `postgresql://USER@HOST:PORT/DATABASE` (never a password).
    public var path: String { engine.location }
    /// Whether the file was opened read-only (see `Access`).
    public var isReadOnly: Bool { engine.isReadOnly }
    /// Whether the store is shared by several stations (PostgreSQL): their
    /// terminals' sessions then carry the station's name.
    public var isShared: Bool { engine.isShared }
    /// The PBKDF2 iterations new PINs are stored with, and that a PIN
    /// stored with fewer is raised to when it is next given right:
    /// `StoredPIN.defaultRounds` but in tests, which run hundreds of PIN
    /// checks in a debug build.
    public let pinRounds: Int
    /// The migrations opening this store applied, oldest first (none when it was up to date).
    public var migrationsApplied: [String] { engine.migratedNow }
    /// Every migration this build knows, oldest first: the same names on either engine.
    public static var migrations: [String] { StoreSchema.migrations }
    let engine: any StoreEngine
    /// Events this instance appended to the log that its change reader has
    /// not passed yet (nil while none follows it): its own writes are
    /// published by whoever made them, so a feed of other processes'
    /// changes skips them.
    let ownEvents = Mutex<Set<Int64>?>(nil)
    /// See `observeCommits(_:)`.
    private let commitObserver = Mutex<(@Sendable () -> Void)?>(nil)

    /// Calls `observer` on the writing thread as each write of this
    /// instance asks for its commit: after all its statements (on a shared
    /// store, after its notification's payload too), just before the commit
    /// itself. The instant a benchmark measures a change's propagation to
    /// other stations from. Replaces any observer given before.
    public func observeCommits(_ observer: @escaping @Sendable () -> Void) {
        commitObserver.withLock { $0 = observer }
    }

    init(engine: any StoreEngine, pinRounds: Int) {
        self.engine = engine
        self.pinRounds = pinRounds
    }

    /// Opens (creating when missing) the SQLite database at `path`.
    ///
    /// Only a regular file is opened: a device, FIFO, socket or folder at
    /// `path` is refused before anything opens it. A file that is not
    /// Switchboard's, is newer than this build, or is damaged is refused with
    /// a `StoreError` and left exactly as it was, with no `-wal` or `-shm`
    /// file left beside it that was not there before.
    public convenience init(path: String, access: Access = .readWrite, pinRounds: Int = StoredPIN.defaultRounds) throws(StoreError) {
        self.init(engine: try SQLiteEngine(path: path, access: access), pinRounds: pinRounds)
    }

    /// Connects to the PostgreSQL database `url` names and migrates it
    /// (once, however many stations start at the same moment). A database
    /// (or schema) holding other tables, or migrated by a newer Switchboard,
    /// is refused; a server that cannot be reached is `offline`.
    ///
    /// With `waitForServer`, a server that cannot be reached now is no
    /// error (a station that boots before its server): every read and
    /// write fails as `offline` until it answers, and the first that
    /// reaches it migrates.
    ///
    /// Every statement, and every connection's start, is given `deadline`
    /// seconds; past it the statement is cancelled at the server, its
    /// connection dropped, and the call fails as `offline`. Waits for a lock
    /// another holds end a little before, as `offline` too (busy). Every
    /// connection goes by `applicationName` on the server (`pg_stat_activity`),
    /// unless the URL names one.
    ///
    /// `watching` says how a change feed hears of other stations' writes:
    /// `.poll` also keeps every setting inside each transaction and
    /// prepares no statement, so the URL may name PgBouncer in transaction pooling.
    public convenience init(
        url: String, pinRounds: Int = StoredPIN.defaultRounds, waitForServer: Bool = false, deadline: Double = StoreDeadline.standard,
        watching: StoreWatching = .listen, applicationName: String = "switchboard"
    ) throws(StoreError) {
        self.init(
            engine: try PostgresEngine(
                url: url, waitForServer: waitForServer, deadline: deadline, watching: watching, applicationName: applicationName),
            pinRounds: pinRounds)
    }

    /// Opens the store at `location` (`waitForServer`: see `init(url:pinRounds:waitForServer:)`).
    public convenience init(
        _ location: StoreLocation, access: Access = .readWrite, pinRounds: Int = StoredPIN.defaultRounds, waitForServer: Bool = false,
        deadline: Double = StoreDeadline.standard, watching: StoreWatching = .listen, applicationName: String = "switchboard"
    ) throws(StoreError) {
        switch location {
        case .file(let path): try self.init(path: path, access: access, pinRounds: pinRounds)
        case .server(let url):
            try self.init(
                url: url, pinRounds: pinRounds, waitForServer: waitForServer, deadline: deadline, watching: watching,
                applicationName: applicationName)
        }
    }

    /// What a write to a store opened read-only is refused with.
    static func readOnlyStore(_ path: String) -> String {
        "the store is read-only (\(path)): this process may not write the file or its folder, so nothing was changed"
    }

    /// Runs one write transaction, mapping engine errors to `StoreError`.
    /// While a change reader follows this database, the events the write
    /// appends are noted as this instance's own, before the commit (so no
    /// reader sees them first), and forgotten again if the commit fails.
    /// Once committed, readers are told that something changed.
    /// A store opened read-only refuses every write before it starts.
    /// `derivations` are what PINs given were worked out to beforehand (`PINDerivations`).
    func write<T>(_ body: (any SQLConnection) throws -> T, derivations: PINDerivations = PINDerivations()) throws(StoreError) -> T {
        if isReadOnly { throw .unavailable(path: path, detail: Self.readOnlyStore(path)) }
        let appended = Mutex<[Int64]>([])
        var noting: EventNotingConnection?
        do {
            return try engine.write({ db in
                let connection = EventNotingConnection(db, derivations: derivations)
                noting = connection
                let result = try body(connection)
                let ids = connection.events.map(\.id)
                appended.withLock { $0 = ids }
                ownEvents.withLock { $0?.formUnion(ids) }
                // A shared store's engine asks for the signal, then commits; the file's commits on return.
                if !engine.isShared { commitObserver.withLock { $0 }?() }
                return result
            }, signal: { db in
                let payload = try ChangePayload.encode(noting?.events ?? [], db: db)
                commitObserver.withLock { $0 }?()
                return payload
            })
        } catch {
            let ids = appended.withLock { $0 }
            if !ids.isEmpty { ownEvents.withLock { $0?.subtract(ids) } }
            throw engine.storeError(error)
        }
    }

    /// Runs one read, mapping engine errors to `StoreError`.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        do {
            return try engine.read(body)
        } catch {
            throw engine.storeError(error)
        }
    }
}

/// How long a shared store's server is given to answer one statement
/// (`[store] timeout`) before it counts as not answering.
public enum StoreDeadline {
    /// The default: 2 seconds.
    public static let standard = 2.0
    /// What `[store] timeout` may be, in seconds.
    public static let allowed = 1...30
}

/// Where a store is: a SQLite file, or a PostgreSQL server's database.
public enum StoreLocation: Sendable, Hashable {
    case file(String)
    /// A `postgresql://` URL (or libpq `key=value` string); it may carry a password, so it is never shown.
    case server(String)

    /// What to warn of each time a command or station opens this store: a
    /// server on another machine reached with a weaker `sslmode` than
    /// `verify-full`, which it asked for (one line, naming the server
    /// without its password); nil for a file, this machine's server, or
    /// `verify-full` (the default to another machine).
    /// The server's URL as the role `role` would give it (`fleet add`'s
    /// advice to a station): the same server, database and settings, no
    /// password; nil for a file, or a URL libpq cannot read.
    public func url(asRole role: String) -> String? {
        guard case .server(let url) = self else { return nil }
        return PGConnection.url(url, as: role)
    }

    public var transportWarning: String? {
        guard case .server(let url) = self, case .success(let transport) = PGConnection.transport(of: url) else { return nil }
        return transport.warning
    }
}
