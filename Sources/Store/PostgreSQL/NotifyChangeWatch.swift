import Dispatch
import Postgres
import Synchronization

/// PostgreSQL's change signal, watched: a connection of its own that
/// `LISTEN`s on the store's channel, its socket a dispatch read source (as
/// SQLite's inotify descriptor is). Every notification is a wake-up.
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
/// `quietCheck` seconds without a word from it the watch asks it for one
/// round trip, which the connection's deadline bounds. So a silent server
/// is noticed within `quietCheck` plus the deadline, with nobody writing.
final class NotifyChangeWatch: ChangeWatch {
    /// A listening connection and the source on its socket.
    private struct Listening: @unchecked Sendable {
        let connection: PGConnection
        let source: any DispatchSourceRead

        /// Stops the source, then closes the connection (and so its socket).
        func end() {
            let connection = connection
            source.setCancelHandler { connection.close() }
            source.cancel()
        }
    }

    private struct State {
        var listening: Listening?
        var cancelled = false
        var offline = false
        var retry: Double
        /// Counts connection tries asked for: a try due after an older one is dropped.
        var tries = 0
        /// Counts words from the server: a quiet check due after an older one is dropped.
        var heard = 0
    }

    private let url: String
    private let server: String
    private let deadline: Double
    private let applicationName: String
    private let queue: DispatchQueue
    private let events: @Sendable (ChangeWatchEvent) -> Void
    /// Makes the store ready (connected once, migrated) and names the channel.
    private let ready: @Sendable () throws(StoreError) -> String
    private let state: Mutex<State>
    var looksAgain: Bool { false }

    /// The first wait before trying again, and the longest.
    static let firstRetry = 1.0, longestRetry = 30.0
    /// Seconds without a word from the server before the watch asks it for one.
    static let quietCheck = 30.0

    init(
        url: String, server: String, deadline: Double, applicationName: String, queue: DispatchQueue, events: @escaping @Sendable (ChangeWatchEvent) -> Void,
        ready: @escaping @Sendable () throws(StoreError) -> String
    ) {
        self.url = url
        self.server = server
        self.deadline = deadline
        self.applicationName = applicationName
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
        listening?.end()
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
            connection = try PGConnection.connect(url, deadline: deadline, applicationName: applicationName)
            try connection.listen(channel)
        } catch {
            return lost(error)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
        source.setEventHandler { [weak self] in self?.readable() }
        let listening = Listening(connection: connection, source: source)
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
        listening.source.resume()
        heard()
        // Whatever was committed while nobody listened is read now.
        events(wasOffline ? .online : .wake)
    }

    /// The socket has something: notifications, or the end of the connection.
    private func readable() {
        guard let connection = state.withLock({ $0.listening?.connection }) else { return }
        do {
            try connection.consumeInput()
        } catch {
            return lost(error)
        }
        heard()
        deliver(connection.notifications())
    }

    /// Each write's notification, in commit order; one that says nothing is a plain wake-up.
    private func deliver(_ notifications: [PGNotification]) {
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
    private func checkIfQuiet(since word: Int) {
        guard let connection = state.withLock({ $0.heard == word ? $0.listening?.connection : nil }) else { return }
        do {
            try connection.execute("SELECT 1")
        } catch {
            return lost(error)
        }
        heard()
        // Notifications that came with the answer were read with it.
        deliver(connection.notifications())
    }

    func retryNow() {
        queue.async { [weak self] in
            guard let self, self.state.withLock({ $0.offline && $0.listening == nil && !$0.cancelled }) else { return }
            self.connect()
        }
    }

    /// The connection is gone (or never came): offline, and a try later.
    private func lost(_ error: any Error) {
        let (listening, retry, cancelled, tries) = state.withLock { state in
            let taken = (state.listening, state.retry, state.cancelled, state.tries)
            state.listening = nil
            state.offline = true
            state.retry = min(state.retry * 2, Self.longestRetry)
            return taken
        }
        listening?.end()
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
