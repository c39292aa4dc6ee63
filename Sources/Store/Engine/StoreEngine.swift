import Dispatch
import Foundation
import SwitchboardCore

/// What the store's rules need from a database engine, and nothing more:
/// connections, transactions, locking and the change signal. The rules
/// (`Writes.swift`, `Reads.swift`, `PINs.swift`, `Credentials.swift`,
/// `ChangeLog.swift`) are written once over it; `SQLiteEngine` and
/// `PostgresEngine` supply it.
protocol StoreEngine: Sendable {
    /// Where the store is, for messages: the file's path, or the server as
    /// `postgresql://USER@HOST:PORT/DATABASE` (never a password).
    var location: String { get }
    /// Whether every write is refused before it starts (a file this process may not write).
    var isReadOnly: Bool { get }
    /// Whether several machines share the store (their sessions carry the station).
    var isShared: Bool { get }
    /// The migrations opening the store applied (none when it was up to date).
    var migratedNow: [String] { get }
    /// The file whose locks mark where each change reader of the machine is
    /// (SQLite's, beside the database); nil where there are no marks.
    var readerMarksPath: String? { get }

    /// Runs `body` as one write transaction, one at a time across every
    /// process using the store; tells change feeds once it has committed.
    /// An engine that can carry a message with its signal (PostgreSQL's
    /// `NOTIFY`) asks `signal` for it after `body`, in the same transaction.
    func write<T>(_ body: (any SQLConnection) throws -> T, signal: (any SQLConnection) throws -> String?) throws -> T
    /// Runs `body` as one write transaction, as `write` does, but tells no
    /// change feed: for what no feed reads (a station's heartbeat), so that
    /// a fleet's heartbeats wake nobody.
    func writeUnannounced<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` in one read transaction: one consistent snapshot.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// What an error thrown by `write`, `read` or a rule is, for a person.
    func storeError(_ error: any Error) -> StoreError

    /// Holds the lock that serialises refreshing `identity`'s tokens,
    /// waiting up to `timeout` seconds.
    func lockRefreshes(of identity: Identity, timeout: Double) async throws(StoreError) -> RefreshLock
    /// A connection of its own for reading the event log from a cursor.
    func follower() throws(StoreError) -> any ChangeFollower
    /// Starts watching for other processes' commits: `events` hears of
    /// each wake-up and of the store going away and coming back, on `queue`.
    func watch(on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) -> any ChangeWatch
}

extension StoreEngine {
    /// A write whose signal carries no message.
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try write(body, signal: { _ in nil }) }

    /// Lets go of what the engine caches, after a big read; nothing unless it says how.
    func releaseMemory() {}
}

/// Reads for a change reader, on a connection of the follower's own.
protocol ChangeFollower: Sendable {
    /// Runs `body` in one read if anybody committed since the last look
    /// (SQLite's `data_version`); nil, without reading, when nobody did.
    /// A follower that cannot tell reads every time.
    func readIfChanged<T>(_ body: (any SQLConnection) throws -> T) throws -> T?
    /// `readIfChanged` for a `body` of one statement, which a follower may
    /// run in fewer round trips (no transaction around it).
    func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws -> T?
    /// Lets go of what its connection caches, after a long read.
    func releaseMemory()
}

extension ChangeFollower {
    func releaseMemory() {}
    func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws -> T? { try readIfChanged(body) }
}

/// What a change watch reports.
public enum ChangeWatchEvent: Sendable, Equatable {
    /// Someone may have committed: read from the cursor.
    case wake
    /// A write committed and said what it did (`ChangeReader.changes(pushed:previous:)`).
    case pushed(String)
    /// The store cannot be reached (the server went away); retrying.
    case offline(String)
    /// The store is back: read from the cursor what was missed.
    case online
}

/// Something watching for other processes' commits; `cancel()` stops it.
public protocol ChangeWatch: Sendable {
    /// Whether a commit may become visible a little after its wake-up (SQLite's
    /// `-wal` writes come before the commit shows), so a feed looks again.
    var looksAgain: Bool { get }
    /// Stops watching. Safe to call twice.
    func cancel()
    /// The store answered someone else: a watch waiting to try again
    /// tries now instead of at the end of its backoff.
    func retryNow()
}

extension ChangeWatch {
    public func retryNow() {}
}
