import Foundation
import Store
import Synchronization

/// Keeps the event log from growing forever (`[store] keep_events`):
/// events older than `keep` are deleted in the background, a small batch
/// per transaction with a pause between batches, so that neither the person
/// at this terminal nor another program's write waits on it. It runs once
/// soon after `start()`, then once every `interval`. Events a running
/// change reader has not read stay (`AppDatabase.pruneEvents`), and a
/// read-only store is left alone.
public final class EventPruner: Sendable {
    public let database: AppDatabase
    /// How long events are kept.
    public let keep: Duration
    private let batch: Int
    private let pause: Duration
    private let interval: Duration
    private let now: @Sendable () -> Date
    private let onError: @Sendable (StoreError) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// - Parameters:
    ///   - batch: events deleted per transaction.
    ///   - pause: the wait between two batches.
    ///   - interval: the wait between two passes.
    public init(
        database: AppDatabase, keep: Duration, batch: Int = 500, pause: Duration = .milliseconds(20),
        interval: Duration = .seconds(86_400), now: @escaping @Sendable () -> Date = { Date() },
        onError: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.database = database
        self.keep = keep
        self.batch = batch
        self.pause = pause
        self.interval = interval
        self.now = now
        self.onError = onError
    }

    deinit { cancel() }

    /// Starts pruning in the background, after `delay`: well after what a
    /// person waits for first (the first frame, the filter's index), and
    /// after the threads that did that work have gone idle.
    public func start(after delay: Duration = .seconds(30)) {
        guard !database.isReadOnly else { return }
        let work = Task.detached(priority: .background) { [self] in
            do { try await Task.sleep(for: delay) } catch { return }
            while !Task.isCancelled {
                _ = await prune()
                do { try await Task.sleep(for: interval) } catch { return }
            }
        }
        task.withLock { $0 = work }
    }

    /// Stops pruning (a batch under way finishes). Safe to call twice.
    public func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// One pass: deletes batch after batch of events older than `keep`
    /// until none may go; returns how many went.
    @discardableResult
    public func prune() async -> Int {
        var total = 0
        while !Task.isCancelled {
            let cutoff = now().addingTimeInterval(-Self.seconds(keep))
            let count: Int
            do { count = try database.pruneEvents(loggedBefore: cutoff, limit: batch) } catch {
                onError(error)
                return total
            }
            total += count
            guard count == batch else { return total }
            do { try await Task.sleep(for: pause) } catch { return total }
        }
        return total
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
