import Dispatch
import Store
import Synchronization
import SwitchboardCore

/// Publishes on a bus what other processes write to the store, as they
/// commit, as the same typed events this process's own writes publish
/// (`UserStatusChanged` with reason `.external`, `AccountsChanged`,
/// `IdentityStateChanged`), so subscribers need no code of their own for it.
///
/// The store's engine says when to look (`AppDatabase.watchChanges`):
/// inotify on SQLite's files, `LISTEN` on PostgreSQL. A wake-up reads the
/// event log from the feed's cursor (`ChangeReader`). On SQLite a commit by
/// another program becomes visible a moment after the file change that woke
/// the feed, so each wake-up also looks again a few times over the next
/// 85 ms. On PostgreSQL the feed also publishes `StoreReachabilityChanged`
/// when the server goes away and comes back; on its return it reads what was
/// missed. Nothing polls: when nobody writes, the feed causes no wake-ups.
public final class ChangeFeed: Sendable {
    private let reader: ChangeReader
    private let bus: NotificationBus
    private let onError: @Sendable (StoreError) -> Void
    private let queue = DispatchQueue(label: "switchboard.change-feed")
    private let watch: Mutex<(any ChangeWatch)?>
    /// The looks after a wake-up, in milliseconds after the one before.
    static let lookAgain = [1, 4, 16, 64]
    /// Counts wake-ups: a look due after an older one is dropped.
    private let wakeUps = Mutex(0)
    /// Whether the store was last known to be reachable.
    private let online = Mutex(true)

    /// Starts following `database`, from the newest event now in its log,
    /// publishing the status changes of `sessions` (and every accounts and
    /// identity change). `onError` hears of a read that failed (the feed
    /// goes on).
    public init(
        database: AppDatabase, bus: NotificationBus, sessions: ChangeReader.Sessions = .all,
        onError: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) throws(StoreError) {
        reader = try ChangeReader(database, following: sessions)
        self.bus = bus
        self.onError = onError
        watch = Mutex(nil)
        let started = try database.watchChanges(on: queue) { [weak self] event in self?.handle(event) }
        watch.withLock { $0 = started }
    }

    deinit { cancel() }

    /// Stops watching. Safe to call twice.
    public func cancel() {
        let stopped = watch.withLock { watch in
            defer { watch = nil }
            return watch
        }
        stopped?.cancel()
    }

    /// The store answered another call: a watch waiting to try again tries now.
    public func retryNow() {
        watch.withLock { $0 }?.retryNow()
    }

    private var isWatching: Bool { watch.withLock { $0 != nil } }

    /// What the watch reports, on `queue`.
    private func handle(_ event: ChangeWatchEvent) {
        switch event {
        case .wake:
            publishChanges()
        case .pushed(let payload):
            publishChanges(pushed: payload)
            if watch.withLock({ $0?.looksAgain ?? false }) { look(again: 0, after: wakeUps.withLock { $0 += 1; return $0 }) }
        case .offline(let detail):
            let wasOnline = online.withLock { online in
                defer { online = false }
                return online
            }
            if wasOnline { bus.publish(StoreReachabilityChanged(online: false, detail: detail)) }
        case .online:
            online.withLock { $0 = true }
            bus.publish(StoreReachabilityChanged(online: true))
            publishChanges()
        }
    }

    /// Schedules look number `step` after wake-up number `wakeUp`, each
    /// followed by the next, unless a later wake-up took over.
    private func look(again step: Int, after wakeUp: Int) {
        guard step < Self.lookAgain.count else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.lookAgain[step])) { [weak self] in
            guard let self, self.wakeUps.withLock({ $0 }) == wakeUp, self.isWatching else { return }
            self.publishChanges()
            self.look(again: step + 1, after: wakeUp)
        }
    }

    /// Publishes what other processes committed since the last look (what
    /// a write's notification said, when it follows on). Runs on `queue`.
    private func publishChanges(pushed: String? = nil) {
        let changes: [StoreChange]
        do throws(StoreError) {
            if let pushed {
                changes = try reader.changes(pushed: pushed)
            } else {
                changes = try reader.changes()
            }
        } catch {
            return onError(error)
        }
        for change in changes {
            switch change {
            case .status(let event):
                bus.publish(event)
            case .accounts(let event): bus.publish(event)
            case .identity(let event): bus.publish(event)
            }
        }
    }
}
