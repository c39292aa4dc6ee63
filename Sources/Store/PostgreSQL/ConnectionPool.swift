import Dispatch
import Postgres
import Synchronization

/// Open connections kept for reuse. A store with a change watch borrows
/// the watch's listening connection (`ListeningConnection`) between
/// notifications, so a station at rest holds that one connection; a call
/// that finds it busy (the watch reading it, another call on it) uses a
/// second, kept for the next such call until it has been idle for
/// `spareLifetime`. A store without a watch (a command) keeps one. More are
/// opened while calls overlap (a token refresh beside a switch) and closed
/// when they end. A connection is used by one caller at a time; one that
/// broke or was left in a transaction is closed, not kept.
///
/// Through a transaction pooler (`throughPooler`: PgBouncer in transaction
/// pooling, where each transaction may run in another server session) the
/// pool prepares no statement and sets each transaction's own settings.
final class ConnectionPool: Sendable {
    private let url: String
    private let deadline: Double
    private let applicationName: String
    private let throughPooler: Bool
    /// Kept connections, each with the number it was kept under (a spare's expiry checks it is still the same stay).
    private let idle = Mutex<(connections: [(PGConnection, stay: Int)], stays: Int)>(([], 0))
    /// The change watch's connection, lent between notifications.
    private let listener = Mutex<ListeningConnection?>(nil)
    /// The listener's connections out on loan, by identity: given back to it, not kept.
    private let lent = Mutex<[ObjectIdentifier: ListeningConnection]>([:])
    /// How many idle connections are kept.
    static let keep = 1
    /// How long a spare beside a listener is kept unused before it is closed.
    static let spareLifetime = 10.0

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

    deinit { idle.withLock { $0.connections.forEach { $0.0.close() } } }

    /// From now on callers borrow `listening`'s connection when it is free,
    /// and a connection kept beside it is a spare, closed when unused for `spareLifetime`.
    func lend(_ listening: ListeningConnection) {
        listener.withLock { $0 = listening }
        let dropped = idle.withLock { idle in
            defer { idle.connections.removeAll() }
            return idle.connections
        }
        dropped.forEach { $0.0.close() }
    }

    /// `listening` is no longer lent (its watch lost or ended it).
    func stopLending(_ listening: ListeningConnection) {
        listener.withLock { if $0 === listening { $0 = nil } }
    }

    /// The listener's connection when `borrowing` and it is free, else an
    /// idle connection that still works (as far as can be told without a
    /// round trip), else a new one; and whether it was open before.
    private func taking(borrowing: Bool) throws(PGError) -> (PGConnection, reused: Bool) {
        if borrowing, let listening = listener.withLock({ $0 }), let connection = listening.borrow() {
            // Nobody read its socket while it was free: a server that hung up has left an end of file there.
            if (try? connection.consumeInput()) != nil, connection.isConnected {
                lent.withLock { $0[ObjectIdentifier(connection)] = listening }
                return (connection, true)
            }
            // Given back broken: its watch hears of it and connects again.
            listening.giveBack()
        }
        while let connection = idle.withLock({ $0.connections.popLast()?.0 }) {
            // A server that went away has left an end of file (or a farewell) to read.
            if (try? connection.consumeInput()) != nil, connection.isConnected { return (connection, true) }
            connection.close()
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
        let stay: Int? = idle.withLock { idle in
            guard idle.connections.count < Self.keep else { return nil }
            idle.stays += 1
            idle.connections.append((connection, idle.stays))
            return idle.stays
        }
        guard let stay else { return connection.close() }
        if listener.withLock({ $0 != nil }) { expire(stay) }
    }

    /// Closes the spare kept under `stay` if it is still unused after `spareLifetime`.
    private func expire(_ stay: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.spareLifetime) { [weak self] in
            guard let self else { return }
            let spare = self.idle.withLock { idle -> PGConnection? in
                guard let index = idle.connections.firstIndex(where: { $0.stay == stay }) else { return nil }
                return idle.connections.remove(at: index).0
            }
            spare?.close()
        }
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
        } catch where reused && error.isOffline && !connection.isConnected {
            // A listener's broken connection goes back to its watch, which hears of it.
            give(connection)
            idle.withLock { idle in
                idle.connections.forEach { $0.0.close() }
                idle.connections.removeAll()
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
