import Dispatch
import Postgres
import Synchronization

/// PostgreSQL's change signal, watched: a connection that `LISTEN`s on the
/// store's channel, its socket a dispatch read source (as SQLite's inotify
/// descriptor is). Every notification is a wake-up. The store's pool
/// borrows the connection between notifications (`ListeningConnection`),
/// so a station at rest holds this one connection and no other.
///
/// When the connection breaks (the server stopped, the network went), it
/// reports `.offline` and tries again after 1 s, then 2, 4… up to 30 s
/// between tries (at once when `retryNow` says the server answered
/// someone); once it listens again it reports `.online`, and the feed
/// reads from its cursor what was committed meanwhile. A server that is
/// down when the watch starts is the same: offline, retrying.
///
/// A server that stops answering but keeps its connections (paused, or
/// a link that swallows packets) sends no end of file: after
/// `quietCheck` (a second) without a word from it the watch asks it for
/// one round trip, which the connection's deadline bounds. So a silent
/// server is noticed within a second plus the deadline, with nobody
/// writing; a station at rest asks its server one `SELECT 1` a second.
final class NotifyChangeWatch: ChangeWatch {
    private struct State {
        var listening: ListeningConnection?
        var cancelled = false
        var offline = false
        var retry: Double
        /// Counts connection tries asked for: a try due after an older one is dropped.
        var tries = 0
        /// Counts words from the server: a quiet check due after an older one is dropped.
        var heard = 0
    }

    private let pool: ConnectionPool
    private let queue: DispatchQueue
    private let events: @Sendable (ChangeWatchEvent) -> Void
    /// Makes the store ready (connected once, migrated) and names the channel.
    private let ready: @Sendable () throws(StoreError) -> String
    private let state: Mutex<State>
    var looksAgain: Bool { false }

    /// The first wait before trying again, and the longest.
    static let firstRetry = 1.0, longestRetry = 30.0
    /// Seconds without a word from the server before the watch asks it for one.
    static let quietCheck = 1.0
    /// More notifications than this, read at once, are a burst.
    static let burst = 16

    init(
        pool: ConnectionPool, queue: DispatchQueue, events: @escaping @Sendable (ChangeWatchEvent) -> Void,
        ready: @escaping @Sendable () throws(StoreError) -> String
    ) {
        self.pool = pool
        self.queue = queue
        self.events = events
        self.ready = ready
        state = Mutex(State(retry: Self.firstRetry))
        queue.async { [weak self] in self?.connect() }
    }

    deinit { cancel() }

    func cancel() {
        let listening = state.withLock { state in
            state.cancelled = true
            defer { state.listening = nil }
            return state.listening
        }
        if let listening { stop(listening) }
    }

    /// The pool no longer borrows `listening`, and the watch lets go of it.
    private func stop(_ listening: ListeningConnection) {
        pool.stopLending(listening)
        listening.end()
    }

    /// Connects and listens; on failure, reports offline and tries again later. Runs on `queue`.
    private func connect() {
        guard !state.withLock({ state in
            state.tries += 1
            return state.cancelled
        }) else { return }
        let connection: PGConnection
        do {
            let channel = try ready()
            // The pool's idle connection if it has one: it becomes the listener.
            connection = try pool.take(borrowing: false)
            do { try connection.listen(channel) } catch {
                connection.close()
                throw error
            }
        } catch {
            return lost(error)
        }
        let listening = ListeningConnection(
            connection, queue: queue,
            readable: { [weak self] in self?.readable() },
            delivered: { [weak self] notifications in
                self?.heard()
                self?.deliver(notifications)
            },
            broken: { [weak self] listening, error in self?.lost(error, of: listening) })
        let (wasOffline, cancelled) = state.withLock { state -> (Bool, Bool) in
            guard !state.cancelled else { return (false, true) }
            state.listening = listening
            defer {
                state.offline = false
                state.retry = Self.firstRetry
            }
            return (state.offline, false)
        }
        if cancelled { return connection.close() }
        listening.start()
        pool.lend(listening)
        // Cancelled after it was published and before it was lent: the cancel's stop came too early to take it back.
        if state.withLock({ $0.cancelled }) { return stop(listening) }
        heard()
        // Whatever was committed while nobody listened is read now.
        events(wasOffline ? .online : .wake)
    }

    /// The socket has something: notifications, or the end of the connection.
    private func readable() {
        guard let listening = state.withLock({ $0.listening }) else { return }
        let received: [PGNotification]?
        do {
            received = try listening.use { connection in
                try connection.consumeInput()
                return connection.notifications()
            }
        } catch {
            return lost(error)
        }
        // Lent meanwhile: what came is delivered when it is given back.
        guard let received else { return }
        heard()
        deliver(received)
    }

    /// Each write's notification, in commit order; one that says nothing is a plain wake-up.
    private func deliver(_ notifications: [PGNotification]) {
        guard !state.withLock({ $0.cancelled }) else { return }
        // A burst read at once is one wake-up: the feed reads from its cursor once, not each write's payload.
        if notifications.count > Self.burst { return events(.wake) }
        for notification in notifications {
            events(notification.payload.isEmpty ? .wake : .pushed(notification.payload))
        }
    }

    /// The server said something: the quiet check is due `quietCheck` from now.
    private func heard() {
        let word = state.withLock { state in
            state.heard += 1
            return state.heard
        }
        queue.asyncAfter(deadline: .now() + Self.quietCheck) { [weak self] in self?.checkIfQuiet(since: word) }
    }

    /// Nothing came since word number `word`: one round trip on the
    /// listening connection, within its deadline, or the server is lost.
    /// A connection lent meanwhile is in use, and its borrower hears of a
    /// silent server.
    private func checkIfQuiet(since word: Int) {
        guard let listening = state.withLock({ $0.heard == word ? $0.listening : nil }) else { return }
        let received: [PGNotification]?
        do {
            received = try listening.use { connection in
                try connection.execute("SELECT 1")
                // Notifications that came with the answer were read with it.
                return connection.notifications()
            }
        } catch {
            return lost(error)
        }
        heard()
        deliver(received ?? [])
    }

    func retryNow() {
        queue.async { [weak self] in
            guard let self, self.state.withLock({ $0.offline && $0.listening == nil && !$0.cancelled }) else { return }
            self.connect()
        }
    }

    /// The connection is gone (or never came): offline, and a try later.
    /// A loss told of a listener other than the current one is old news.
    private func lost(_ error: any Error, of lost: ListeningConnection? = nil) {
        let current = state.withLock { state in lost == nil || state.listening === lost }
        guard current else { return }
        let (listening, retry, cancelled, tries) = state.withLock { state in
            let taken = (state.listening, state.retry, state.cancelled, state.tries)
            state.listening = nil
            state.offline = true
            state.retry = min(state.retry * 2, Self.longestRetry)
            return taken
        }
        if let listening { stop(listening) }
        guard !cancelled else { return }
        let detail: String =
            switch error {
            case let error as PGError: error.description
            case let error as StoreError: error.description
            default: "\(error)"
            }
        events(.offline(detail))
        queue.asyncAfter(deadline: .now() + retry) { [weak self] in
            // Unless `retryNow` tried meanwhile.
            guard let self, self.state.withLock({ $0.tries == tries && $0.listening == nil }) else { return }
            self.connect()
        }
    }
}
