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
///
/// One machine holds a station's name and terminal at a time: while
/// another (a cloned image of the same host name, say) is heard from, this
/// one writes no row and says so (`onName`), and tries again at each beat.
public final class StationReporter: Sendable {
    public let database: AppDatabase
    /// What the station says of itself when it starts.
    public let report: StationReport
    /// This machine and boot (`instance(environment:)`).
    public let instance: String
    /// Whether the station's name is only the host name (`[store] station` unset).
    private let nameIsHostName: Bool
    private let interval: Duration
    private let now: @Sendable () -> Date
    private let onError: @Sendable (StoreError) -> Void
    private let state = Mutex<(lastKey: Date?, handOff: Bool, task: Task<Void, Never>?, started: Bool, skew: Double)>((nil, false, nil, false, 0))
    private let nameHandler = Mutex<(@Sendable (String?) -> Void)?>(nil)
    private let skewHandler = Mutex<(@Sendable (Double?) -> Void)?>(nil)

    /// How far this machine's clock may be from the fleet's (the server's)
    /// before the station says so on its screen.
    public static let skewTolerance = StationReport.clockTolerance

    /// Hears whether this machine holds the station's name: nil once it
    /// does, else what to say on its screen. Set before `start()`.
    public func onName(_ handler: @escaping @Sendable (String?) -> Void) {
        nameHandler.withLock { $0 = handler }
    }

    /// Hears, at each beat, how many seconds this machine's clock is ahead
    /// of the fleet's (behind: negative) when that is past `skewTolerance`,
    /// else nil. Set before `start()`.
    public func onClockSkew(_ handler: @escaping @Sendable (Double?) -> Void) {
        skewHandler.withLock { $0 = handler }
    }

    /// This machine and boot: the kernel's boot id (a station restarted on
    /// the same boot is the same machine; a cloned image booted elsewhere is
    /// not), or `SWITCHBOARD_STATION_INSTANCE` where set (tests that play
    /// two machines).
    public static func instance(environment: [String: String]) -> String {
        if let given = environment["SWITCHBOARD_STATION_INSTANCE"], !given.isEmpty { return given }
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return boot.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
    }

    /// - Parameters:
    ///   - station, terminal, session, version: what the row says.
    ///   - interval: the time between two heartbeats (30 s; shorter in tests).
    public init(
        database: AppDatabase, station: String, terminal: String, session: String, version: String,
        instance: String = StationReporter.instance(environment: [:]), nameIsHostName: Bool = false,
        interval: Duration = .seconds(30), now: @escaping @Sendable () -> Date = { Date() },
        onError: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.database = database
        self.instance = instance
        self.nameIsHostName = nameIsHostName
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
            var started = false, refused = false
            while !Task.isCancelled {
                do throws(StoreError) {
                    if !started {
                        var report = report
                        report.heartbeatAt = try fleetTime()
                        report.startedAt = report.startedAt.addingTimeInterval(-self.state.withLock { $0.skew })
                        // Logged once a refusal streak, not at every beat.
                        switch try database.stationStarted(report, instance: instance, logClash: !refused) {
                        case .started:
                            started = true
                            refused = false
                            self.state.withLock { $0.started = true }
                            nameHandler.withLock { $0 }?(nil)
                        case .taken(let heardAt):
                            refused = true
                            nameHandler.withLock { $0 }?(taken(heardAt: heardAt, now: report.heartbeatAt))
                        }
                    } else {
                        // A row gone under it (the store cleared) is made again.
                        started = try beat()
                        if !started { self.state.withLock { $0.started = false } }
                    }
                } catch {
                    onError(error)
                }
                try? await Task.sleep(for: interval)
            }
        }
        state.withLock { $0.task = task }
    }

    /// A key was pressed at `date`, by this machine's clock (written to the
    /// minute, by the fleet's).
    public func keyPressed(at date: Date) {
        state.withLock { $0.lastKey = date }
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
        // A machine that never held the name leaves the row of the one that does alone.
        guard state.withLock({ $0.started }) else { return }
        do throws(StoreError) {
            try database.stationStopped(station: report.station, terminal: report.terminal, instance: instance, at: try fleetTime())
        } catch {
            onError(error)
        }
    }

    /// One heartbeat; false when the row is gone (or another machine's now).
    private func beat() throws(StoreError) -> Bool {
        let (handOff, started) = state.withLock { ($0.handOff, $0.started) }
        guard started else { return false }
        let at = try fleetTime()
        // The last key by the fleet's clock.
        let (lastKey, skew) = state.withLock { state in (state.lastKey.map { StationReport.minute($0.addingTimeInterval(-state.skew)) }, state.skew) }
        // Its clock's distance, to the tenth of a second, for the board to say.
        return try database.stationHeartbeat(
            station: report.station, terminal: report.terminal, instance: instance, lastKeyAt: lastKey, handOffRunning: handOff,
            clockSkew: (skew * 10).rounded() / 10, at: at)
    }

    /// The fleet's time now (the server's, on a shared store): what every
    /// time this station writes is stamped with, so that stations and the
    /// board compare one clock. How far this machine's is off is told
    /// (`onClockSkew`) when past the tolerance.
    private func fleetTime() throws(StoreError) -> Date {
        let (server, offset) = try database.fleetClock(against: now)
        let skew = -offset
        state.withLock { $0.skew = skew }
        skewHandler.withLock { $0 }?(abs(skew) > Self.skewTolerance ? skew : nil)
        return server
    }

    /// What the station's screen says while another machine holds its name.
    private func taken(heardAt: Date, now: Date) -> String {
        let ago = max(0, Int(now.timeIntervalSince(heardAt)))
        let advice = nameIsHostName
            ? "This station is named after its host name, which cloned machines share: give it a name of its own ([store] station in config.toml)."
            : "Give one of them another name ([store] station in config.toml)."
        return "Another machine is running as station \(report.station) on \(report.terminal) (heard from \(ago) s ago): "
            + "two machines cannot share one station's session. This one waits, and takes over once the other stops. " + advice
    }
}
