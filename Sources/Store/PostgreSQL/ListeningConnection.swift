import Dispatch
import Postgres
import Synchronization

/// The change watch's listening connection, which the store's pool also
/// uses for reads and writes between notifications, so that a station at
/// rest holds one connection, not two. A `LISTEN`ing connection may run
/// any statement: notifications that come meanwhile wait in libpq's queue
/// and are delivered, in order, once it is given back.
///
/// At any moment one party has the connection: the watch (reading its
/// socket, or asking a quiet server for a round trip), a borrower from the
/// pool, or nobody. While it is lent the watch's read source is cancelled
/// (a readable socket would wake it for nothing); giving it back makes a
/// new one, on the watch's queue, after what came meanwhile is delivered.
final class ListeningConnection: @unchecked Sendable {
    /// Who has the connection.
    private enum Use {
        /// Nobody: the watch's source (nil until the watch makes one) waits for the socket.
        case free(source: Source?)
        /// The watch is reading it, its source active.
        case watching(source: Source)
        /// A borrower from the pool.
        case lent
        /// The watch let go of it (lost, or cancelled): whoever has it closes it.
        case ended
    }

    let connection: PGConnection
    /// The connection's socket, read once: it is the same for the connection's life.
    private let socket: Int32
    private let queue: DispatchQueue
    private let state = Mutex<(use: Use, pending: [PGNotification])>((.free(source: nil), []))
    /// Hears, on `queue`, of notifications, and of the connection being lost while lent.
    private let delivered: @Sendable ([PGNotification]) -> Void
    private let readable: @Sendable () -> Void
    private let broken: @Sendable (ListeningConnection, PGError) -> Void

    /// A listening `connection` whose socket is read on `queue`
    /// (`readable`), whose notifications received while lent are given to
    /// `delivered`, and whose loss while lent is told to `broken`, each on `queue`.
    init(
        _ connection: PGConnection, queue: DispatchQueue, readable: @escaping @Sendable () -> Void,
        delivered: @escaping @Sendable ([PGNotification]) -> Void, broken: @escaping @Sendable (ListeningConnection, PGError) -> Void
    ) {
        self.connection = connection
        socket = connection.socket
        self.queue = queue
        self.readable = readable
        self.delivered = delivered
        self.broken = broken
    }

    /// Starts watching the socket. Runs on `queue`.
    func start() { resumeWatching() }

    /// Runs `body` with the connection if nobody else has it (the watch's
    /// own reads); nil when it is lent or ended. Runs on `queue`.
    func use<T>(_ body: (PGConnection) throws -> T) rethrows -> T? {
        let source: Source? = state.withLock { state in
            guard case .free(let source?) = state.use else { return nil }
            state.use = .watching(source: source)
            return source
        }
        guard let source else { return nil }
        defer {
            let ended = state.withLock { state -> Bool in
                guard case .watching = state.use else { return true }
                state.use = .free(source: source)
                return false
            }
            if ended { Self.close(connection, source: source) }
        }
        return try body(connection)
    }

    /// The connection for a pool's caller, if nobody has it; `giveBack()` ends the loan.
    func borrow() -> PGConnection? {
        let taken: Source?? = state.withLock { state in
            guard case .free(let source) = state.use else { return .none }
            state.use = .lent
            return .some(source)
        }
        guard let taken else { return nil }
        taken?.cancel()
        return connection
    }

    /// The borrower is done: what was received meanwhile is delivered and
    /// the watch reads the socket again; a connection that broke (or was
    /// left in a transaction that cannot be ended) is the watch's loss.
    func giveBack() {
        if connection.isConnected, !connection.isIdle { _ = try? connection.execute("ROLLBACK") }
        let received = connection.notifications()
        let healthy = connection.isConnected && connection.isIdle
        let wasLent = state.withLock { state -> Bool in
            guard case .lent = state.use else { return false }
            state.pending += received
            state.use = healthy ? .free(source: nil) : .ended
            return true
        }
        // The watch let go while it was lent: nobody else will close it.
        guard wasLent, healthy else { return loseWhileLent(noticed: wasLent) }
        queue.async { [weak self] in self?.resumeWatching() }
    }

    /// A loan ended on a broken connection, or after the watch let go: it is closed, and a broken one is the watch's loss.
    private func loseWhileLent(noticed: Bool) {
        connection.close()
        guard noticed else { return }
        let lost = PGError(.connectionLost, server: connection.server, detail: "the connection broke while it was in use")
        queue.async { [self] in broken(self, lost) }
    }

    /// Delivers what came while the connection was lent, then watches its
    /// socket again, if nobody has borrowed it since. Runs on `queue`.
    private func resumeWatching() {
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        if !pending.isEmpty { delivered(pending) }
        // Lent again, ended, or given back again with more to deliver (the return's own call watches after it).
        guard socket >= 0, state.withLock({ state in
            guard case .free(nil) = state.use else { return false }
            return state.pending.isEmpty
        }) else { return }
        let source = Source(read: DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue))
        source.read.setEventHandler { [readable] in readable() }
        let watching = state.withLock { state -> Bool in
            guard case .free(nil) = state.use, state.pending.isEmpty else { return false }
            state.use = .free(source: source)
            return true
        }
        source.read.resume()
        // Lent again or ended since the look above (a return watches again): not needed after all.
        if !watching { source.cancel() }
    }

    /// The watch lets go: the connection is closed now, or by whoever has it when they are done.
    func end() {
        let source: Source?? = state.withLock { state in
            defer { state.use = .ended }
            switch state.use {
            case .free(let source): return .some(source)
            case .watching, .lent, .ended: return .none
            }
        }
        guard let source else { return }
        if let source { Self.close(connection, source: source) } else { connection.close() }
    }

    /// Stops the source, then closes the connection (and so its socket).
    private static func close(_ connection: PGConnection, source: Source) {
        let connection = UncheckedConnection(connection)
        source.read.setCancelHandler { connection.value.close() }
        source.cancel()
    }
}

/// The watch's read source on the socket, handed about under the lock.
private struct Source: @unchecked Sendable {
    let read: any DispatchSourceRead
    func cancel() { read.cancel() }
}

/// A connection carried into a cancel handler, used only there.
private struct UncheckedConnection: @unchecked Sendable {
    let value: PGConnection
    init(_ value: PGConnection) { self.value = value }
}

