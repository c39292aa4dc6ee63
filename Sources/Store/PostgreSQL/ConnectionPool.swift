import Postgres
import Synchronization

/// Open connections kept for reuse. A store with a change watch keeps
/// none of its own: it borrows the watch's listening connection
/// (`ListeningConnection`) between notifications, so a station at rest
/// holds that one connection. A store without one (a command) keeps one.
/// More are opened while calls overlap (a token refresh beside a switch)
/// and closed when they end. A connection is used by one caller at a time;
/// one that broke or was left in a transaction is closed, not kept.
///
/// Through a transaction pooler (`throughPooler`: PgBouncer in transaction
/// pooling, where each transaction may run in another server session) the
/// pool prepares no statement and sets each transaction's own settings.
final class ConnectionPool: Sendable {
    private let url: String
    private let deadline: Double
    private let applicationName: String
    private let throughPooler: Bool
    private let idle = Mutex<[PGConnection]>([])
    /// The change watch's connection, lent between notifications.
    private let listener = Mutex<ListeningConnection?>(nil)
    /// The listener's connections out on loan, by identity: given back to it, not kept.
    private let lent = Mutex<[ObjectIdentifier: ListeningConnection]>([:])
    /// How many idle connections are kept when no listener lends its own.
    static let keep = 1

    init(url: String, deadline: Double, applicationName: String, throughPooler: Bool = false) {
        self.url = url
        self.deadline = deadline
        self.applicationName = applicationName
        self.throughPooler = throughPooler
    }

    /// A new connection, made as the pool's are.
    private func connect() throws(PGError) -> PGConnection {
        let connection = try PGConnection.connect(url, deadline: deadline, applicationName: applicationName)
        connection.preparesStatements = !throughPooler
        return connection
    }

    /// `begin` (whose first statement is `BEGIN`), with the session's
    /// settings made the transaction's own right after it when through a pooler.
    private func withSettings(_ begin: String) -> String {
        guard throughPooler else { return begin }
        let first = begin.firstIndex(of: ";") ?? begin.endIndex
        return begin[..<first] + "; " + PGConnection.settings(deadline: deadline, local: true) + begin[first...]
    }

    deinit { idle.withLock { $0.forEach { $0.close() } } }

    /// From now on callers borrow `listening`'s connection when it is free,
    /// and the pool keeps no idle connection of its own.
    func lend(_ listening: ListeningConnection) {
        listener.withLock { $0 = listening }
        let dropped = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        dropped.forEach { $0.close() }
    }

    /// `listening` is no longer lent (its watch lost or ended it).
    func stopLending(_ listening: ListeningConnection) {
        listener.withLock { if $0 === listening { $0 = nil } }
    }

    /// An idle connection that still works (as far as can be told without
    /// a round trip), else the listener's when `borrowing` and it is free,
    /// else a new one; and whether it was open before.
    private func taking(borrowing: Bool) throws(PGError) -> (PGConnection, reused: Bool) {
        while let connection = idle.withLock({ $0.popLast() }) {
            // A server that went away has left an end of file (or a farewell) to read.
            if (try? connection.consumeInput()) != nil, connection.isConnected { return (connection, true) }
            connection.close()
        }
        if borrowing, let listening = listener.withLock({ $0 }), let connection = listening.borrow() {
            lent.withLock { $0[ObjectIdentifier(connection)] = listening }
            return (connection, true)
        }
        return (try connect(), false)
    }

    /// A connection for a caller that keeps it a while (`give` it back);
    /// the listener's only when `borrowing`.
    func take(borrowing: Bool = true) throws(PGError) -> PGConnection { try taking(borrowing: borrowing).0 }

    func give(_ connection: PGConnection) {
        if let listening = lent.withLock({ $0.removeValue(forKey: ObjectIdentifier(connection)) }) {
            return listening.giveBack()
        }
        guard connection.isConnected, connection.isIdle else { return connection.close() }
        let lending = listener.withLock { $0 != nil }
        let kept = idle.withLock { idle in
            guard !lending, idle.count < Self.keep else { return false }
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
    /// (see `transaction(begin:_:)`); the listener's only when `borrowing`.
    func begin(_ begin: String, borrowing: Bool = true) throws(PGError) -> PGConnection {
        let begin = withSettings(begin)
        let (connection, reused) = try taking(borrowing: borrowing)
        do {
            try connection.execute(begin)
            return connection
        } catch where reused && error.isOffline {
            // A listener's broken connection goes back to its watch, which hears of it.
            give(connection)
            idle.withLock { idle in
                idle.forEach { $0.close() }
                idle.removeAll()
            }
        } catch {
            give(connection)
            throw error
        }
        let fresh = try connect()
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
