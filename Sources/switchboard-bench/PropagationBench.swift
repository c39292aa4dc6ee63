import Foundation
import ProcessKit
import Store
import Services
import ChooserApp
import SwitchboardCore

/// `propagation`: how soon one process's write reaches another's panes.
///
/// A writer process (this executable, `propagation-writer`) switches one
/// session between two accounts `count` times at a steady rate, noting the
/// monotonic time just before each write begins. This process holds the
/// store open as the chooser does — a `ChangeFeed` on a `NotificationBus`,
/// a subscriber on the main actor — and notes when each switch arrives.
/// The figures are the time from the start of a write to its delivery:
/// `propagation-p50-ms`, `propagation-p99-ms` (goal ≤ 5 ms). The feed folds
/// a burst into each session's latest state (as `status --watch` prints
/// it), so a switch counts as delivered when it, or a later state of its
/// session, arrives.
enum PropagationBench {
    static let session = SessionKey("bench-writer")!
    static let goalP99 = 5.0

    @MainActor
    static func run(_ arguments: [String]) async throws {
        var count = 1000, intervalMS = 5.0
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            switch name {
            case "--count": count = iterator.next().flatMap(Int.init) ?? count
            case "--interval-ms": intervalMS = iterator.next().flatMap(Double.init) ?? intervalMS
            default: throw BenchError("propagation: unexpected \(name)")
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-propagation-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/switchboard.sqlite"
        let database = try AppDatabase(path: path)
        for index in 0..<2 { _ = try database.signIn(Synthetic.account(index).identities[0], mode: .signIn, session: session) }

        let bus = NotificationBus()
        var arrivals: [(at: Double, account: AccountID?)] = []
        arrivals.reserveCapacity(count)
        let subscription = bus.subscribe(UserStatusChanged.self, name: "bench") { change in
            if change.session == session { arrivals.append((now(), change.current.id)) }
        }
        let feed = try ChangeFeed(database: database, bus: bus)
        guard let executable = RunningProcess.executableFolder.map({ $0 + "/switchboard-bench" }) else {
            throw BenchError("cannot find this executable (/proc/self/exe)")
        }
        let writerArguments = ["propagation-writer", "--database", path, "--count", "\(count)", "--interval-ms", "\(intervalMS)"]
        let writer = Task.detached { @Sendable () async throws -> ChildProcess.Result in
            try ChildProcess.run(executable, writerArguments, environment: ChildProcess.environment(), timeout: 600)
        }
        let result = try await writer.value
        guard result.status == 0 else { throw BenchError("the writer failed (\(result.status)): \(result.stderr)") }
        let started = result.stdout.split(separator: "\n").compactMap { Double($0) }
        let accounts = try database.accounts().map(\.id)
        // Switch i made accounts[1] active when i is even, accounts[0] when odd (the writer's order).
        let wanted = started.indices.map { accounts.count >= 2 ? accounts[$0 % 2 == 0 ? 1 : 0] : nil }
        let deadline = now() + 10
        while delivered(started, wanted, arrivals).count < started.count, now() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        feed.cancel()
        withExtendedLifetime(subscription) {}
        let times = delivered(started, wanted, arrivals)
        guard times.count == started.count, started.count == count else {
            throw BenchError("\(times.count) of \(started.count) switches delivered (\(count) asked for, \(arrivals.count) states arrived)")
        }
        let latencies = zip(started, times).map { ($1 - $0) * 1000 }.sorted()
        let p50 = percentile(latencies, 0.50), p99 = percentile(latencies, 0.99)
        printTable([
            ["figure", "ms", "goal", ""],
            ["start of write to delivery, p50", fixed(p50, 2), "", ""],
            ["start of write to delivery, p99", fixed(p99, 2), "≤ \(fixed(goalP99, 0))", verdict(p99 <= goalP99)],
        ])
        print("")
        figure("propagation-switches", Double(count))
        figure("propagation-interval-ms", intervalMS, decimals: 1)
        figure("propagation-max-ms", latencies.last ?? .nan, decimals: 2)
        figure("propagation-p50-ms", p50, decimals: 2)
        figure("propagation-p99-ms", p99, decimals: 2)
    }

    /// The writer: `count` switches between the first two accounts, one
    /// every `interval` ms; prints each write's start time (monotonic
    /// seconds) once done, so that printing does not disturb the timing.
    static func write(_ arguments: [String]) throws {
        var options: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() { options[name] = iterator.next() }
        guard let path = options["--database"], let count = options["--count"].flatMap(Int.init),
            let interval = options["--interval-ms"].flatMap(Double.init)
        else { throw BenchError("propagation-writer: --database PATH --count N --interval-ms MS") }
        let database = try AppDatabase(path: path)
        let accounts = try database.accounts().map(\.id)
        guard accounts.count >= 2 else { throw BenchError("propagation-writer: needs two accounts") }
        var started: [Double] = []
        started.reserveCapacity(count)
        let first = now()
        for index in 0..<count {
            let due = first + Double(index) * interval / 1000
            if due > now() { usleep(useconds_t((due - now()) * 1e6)) }
            started.append(now())
            _ = try database.switchAccount(to: accounts[index % 2 == 0 ? 1 : 0], session: session)
        }
        print(started.map { String(format: "%.9f", $0) }.joined(separator: "\n"))
    }

    /// When each switch was delivered, for as many as were: the first state
    /// of the session to arrive after the switch began that is the one it
    /// made, or any that arrived after the next switch began (a later state,
    /// into which a burst was folded).
    static func delivered(_ started: [Double], _ wanted: [AccountID?], _ arrivals: [(at: Double, account: AccountID?)]) -> [Double] {
        var times: [Double] = []
        var next = 0
        for index in started.indices {
            let later = index + 1 < started.count ? started[index + 1] : .infinity
            while next < arrivals.count, arrivals[next].at < started[index] { next += 1 }
            guard let found = arrivals[next...].first(where: { $0.account == wanted[index] || $0.at >= later }) else { break }
            times.append(found.at)
        }
        return times
    }

    /// The value below which `fraction` of the sorted `values` lie (nearest rank).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
