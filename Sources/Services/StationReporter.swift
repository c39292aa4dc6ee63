import Foundation
import Store
import Synchronization

/// A running station telling the store it runs (`AppDatabase.stationStarted`,
/// `stationHeartbeat`): its row when it starts, then a heartbeat every
/// `interval` with when its last key was pressed (to the minute; the keys
/// themselves are never seen here) and whether its hand-off command runs.
/// A station that misses three heartbeats is offline to the fleet. Every
/// write is off the caller's thread; a failed one is reported and the next
/// beat tries again (a station outlives its server going away).
public final class StationReporter: Sendable {
    public let database: AppDatabase
    /// What the station says of itself when it starts.
    public let report: StationReport
    private let interval: Duration
    private let now: @Sendable () -> Date
    private let onError: @Sendable (StoreError) -> Void
    private let state = Mutex<(lastKey: Date?, handOff: Bool, task: Task<Void, Never>?)>((nil, false, nil))

    /// - Parameters:
    ///   - station, terminal, session, version: what the row says.
    ///   - interval: the time between two heartbeats (30 s; shorter in tests).
    public init(
        database: AppDatabase, station: String, terminal: String, session: String, version: String,
        interval: Duration = .seconds(30), now: @escaping @Sendable () -> Date = { Date() },
        onError: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.database = database
        let start = now()
        let seconds = max(1, Int(interval.components.seconds))
        report = StationReport(
            station: station, terminal: terminal, session: session, version: version, startedAt: start, heartbeatAt: start,
            heartbeatSeconds: seconds)
        self.interval = .seconds(seconds)
        self.now = now
        self.onError = onError
    }

    /// Writes the station's row, then beats until `stop()`.
    public func start() {
        let task = Task.detached { [self] in
            var started = false
            while !Task.isCancelled {
                do throws(StoreError) {
                    if !started {
                        var report = report
                        report.heartbeatAt = now()
                        try database.stationStarted(report)
                        started = true
                    } else {
                        // A row gone under it (the store cleared) is made again.
                        started = try beat()
                    }
                } catch {
                    onError(error)
                }
                try? await Task.sleep(for: interval)
            }
        }
        state.withLock { $0.task = task }
    }

    /// A key was pressed at `date` (kept to the minute).
    public func keyPressed(at date: Date) {
        let minute = StationReport.minute(date)
        state.withLock { $0.lastKey = minute }
    }

    /// The hand-off command started or ended: said at once, not at the next beat.
    public func handOff(running: Bool) {
        state.withLock { $0.handOff = running }
        Task.detached { [self] in
            do throws(StoreError) { _ = try beat() } catch { onError(error) }
        }
    }

    /// Stops beating and marks the station stopped (offline at once).
    public func stop() {
        let task = state.withLock { state in
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        do throws(StoreError) { try database.stationStopped(station: report.station, terminal: report.terminal, at: now()) } catch { onError(error) }
    }

    /// One heartbeat; false when the row is gone.
    private func beat() throws(StoreError) -> Bool {
        let (lastKey, handOff) = state.withLock { ($0.lastKey, $0.handOff) }
        return try database.stationHeartbeat(
            station: report.station, terminal: report.terminal, lastKeyAt: lastKey, handOffRunning: handOff, at: now())
    }
}
