import Dispatch
import Synchronization

/// PostgreSQL's change log, looked at every `seconds` by its newest id (one
/// read by the primary key's index) instead of listened to (`[store] watch
/// = "poll"`): a look that finds a newer id is a wake-up, and the feed
/// reads from its cursor. It needs no session of its own on the server, so
/// stations can share server connections through PgBouncer's transaction
/// pooling, where `LISTEN` cannot work.
///
/// A look that fails reports `.offline` (once), and the first that
/// succeeds after it `.online`, so the feed reads what was missed. Looks
/// go on at the same pace meanwhile, each bounded by the store's deadline.
final class PollChangeWatch: ChangeWatch {
    private struct State {
        var newest: Int64?
        var offline = false
        var cancelled = false
    }

    private let queue: DispatchQueue
    private let events: @Sendable (ChangeWatchEvent) -> Void
    /// The change log's newest id (0 when empty).
    private let newest: @Sendable () throws(StoreError) -> Int64
    private let state = Mutex(State())
    /// Fires the looks; cancelling it (thread-safe) stops them.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer
    var looksAgain: Bool { false }

    init(
        every seconds: Double, queue: DispatchQueue, events: @escaping @Sendable (ChangeWatchEvent) -> Void,
        newest: @escaping @Sendable () throws(StoreError) -> Int64
    ) {
        self.queue = queue
        self.events = events
        self.newest = newest
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(Int(seconds * 1000))
        timer.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(Int(seconds * 100)))
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
    }

    deinit { cancel() }

    func cancel() {
        state.withLock { $0.cancelled = true }
        timer.cancel()
    }

    func retryNow() {
        queue.async { [weak self] in
            guard let self, self.state.withLock({ $0.offline && !$0.cancelled }) else { return }
            self.look()
        }
    }

    /// One look at the log's newest id. Runs on `queue`.
    private func look() {
        guard !state.withLock({ $0.cancelled }) else { return }
        let event: ChangeWatchEvent?
        do {
            let id = try newest()
            event = state.withLock { state -> ChangeWatchEvent? in
                defer {
                    state.newest = id
                    state.offline = false
                }
                if state.offline { return .online }
                // The first look is a wake-up: what came since the feed started is read.
                guard let before = state.newest else { return .wake }
                return id != before ? .wake : nil
            }
        } catch {
            event = state.withLock { state in
                defer { state.offline = true }
                return state.offline ? nil : .offline(error.description)
            }
        }
        if let event, !state.withLock({ $0.cancelled }) { events(event) }
    }
}
