import BoardUI
import DemoProvider
import DeviceFlow
import Foundation
import Postgres
import PostgresServer
import ProcessKit
import Services
import Store
import Synchronization
import SwitchboardCore

/// `fleet`: a fleet of station processes on one PostgreSQL server.
///
/// This process starts a throwaway server (`ThrowawayCluster`), migrates a
/// database and seeds it (two accounts, one with a PIN, and Ada signed in
/// through a demo provider that rotates refresh tokens and gives 1-second
/// access tokens), then starts `--stations` processes (this executable,
/// `fleet-station`). Each holds the store as a chooser does, a `ChangeFeed`
/// listening on a `NotificationBus`, and, all on one monotonic clock:
///
/// 1. writes `--rounds` times in its own session (`station-N/tty1`), a
///    switch then a sign-out, one every `--interval-ms`, the stations'
///    writes spread evenly over the interval, noting when each write
///    began; and notes every other station's change its bus delivers;
/// 2. switches and signs out back to back for `--burst` seconds;
/// 3. guesses the protected account's PIN wrong three times, all stations
///    at once;
/// 4. asks for a fresh access token of Ada's, all at once.
///
/// The figures: the time from a write's commit (the moment it asks for
/// it, `AppDatabase.observeCommits`) to its delivery on the bus of every
/// other station (p50, p99; goal p99 ≤ 5 ms at 30 stations), beside the
/// write's own time before it and the whole from its start,
/// deliveries lost and duplicated (goal 0), switches per second, the PIN
/// tries looked at (goal: five, not five a station) and refreshes that
/// spent a refresh token another had spent (goal 0).
///
/// Then the operator's board (`BoardBench`), unless `--board-only` asks for it alone.
enum FleetBench {
    static let goalP99 = 5.0
    static let pin = "2468"

    struct Options {
        var stations = 30, rounds = 20, intervalMS = 1000.0, burst = 3.0
        /// The operator's board: its stations, the changes timed, the idle seconds; `--board-only` skips the stations' phases.
        var boardStations = 300, boardChanges = 40, boardIdle = 10.0, boardOnly = false
        /// libpq's `sslmode` for the stations (the server offers TLS).
        var sslmode = "require"
        /// Stations through PgBouncer's transaction pooling (`--pgbouncer`), looking every `pollMS` (`watch = "poll"`).
        var pgbouncer = false, pollMS = 100.0

        init(_ arguments: [String]) throws {
            var iterator = arguments.makeIterator()
            while let name = iterator.next() {
                if name == "--board-only" || name == "--pgbouncer" {
                    if name == "--board-only" { boardOnly = true } else { pgbouncer = true }
                    continue
                }
                let value = iterator.next()
                switch name {
                case "--board-stations": boardStations = try Self.number(name, value, Int.init)
                case "--board-changes": boardChanges = try Self.number(name, value, Int.init)
                case "--board-idle": boardIdle = try Self.number(name, value, Double.init)
                case "--stations": stations = try Self.number(name, value, Int.init)
                case "--rounds": rounds = try Self.number(name, value, Int.init)
                case "--interval-ms": intervalMS = try Self.number(name, value, Double.init)
                case "--burst": burst = try Self.number(name, value, Double.init)
                case "--poll-ms": pollMS = try Self.number(name, value, { Double($0).flatMap { (100...60_000).contains($0) ? $0 : nil } })
                case "--sslmode": sslmode = try Self.number(name, value, { ["disable", "require"].contains($0) ? $0 : nil })
                default: throw BenchError("fleet: unexpected \(name)")
                }
            }
            guard stations >= 2, rounds >= 2, intervalMS > 0, burst >= 0 else { throw BenchError("fleet: at least 2 stations and 2 rounds") }
            guard boardStations >= 12, boardChanges >= 2, boardIdle > 0 else { throw BenchError("fleet: the board needs 12 stations and 2 changes") }
        }

        static func number<T>(_ name: String, _ value: String?, _ parse: (String) -> T?) throws -> T {
            guard let value, let number = parse(value) else { throw BenchError("fleet: \(name) takes a number") }
            return number
        }
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments)
        if !options.boardOnly { try await stationsPhases(options) }
        try await onThread {
            try BoardBench.run(stations: options.boardStations, changes: options.boardChanges, idleSeconds: options.boardIdle, sslmode: options.sslmode)
        }
    }

    /// The station processes' phases (1 to 4 above).
    static func stationsPhases(_ options: Options) async throws {
        print("starting a PostgreSQL server and \(options.stations) stations…")
        let cluster = try ThrowawayCluster.start()
        defer { cluster.stop() }
        try cluster.createDatabase("fleet")
        let url = cluster.url(database: "fleet", extra: "sslmode=\(options.sslmode)")
        // Through PgBouncer the stations share ten server connections, and poll.
        let pooler = options.pgbouncer ? try ThrowawayPooler(for: cluster, database: "fleet", serverConnections: 10) : nil
        defer { pooler?.stop() }
        let stationURL = pooler?.url() ?? url

        // The provider: rotating refresh tokens, 1-second access tokens.
        let server = DemoServer(settings: DemoSettings(interval: 1, accessTokenLifetime: 1, rotateRefreshTokens: true))
        let issuer = try await server.start(port: 0)
        let database = try AppDatabase(url: url)
        let setup = SessionKey("setup")!
        for index in 0..<2 { _ = try database.signIn(Synthetic.account(index).identities[0], mode: .signIn, session: setup) }
        let protected = try database.signIn(Synthetic.account(2).identities[0], mode: .signIn, session: setup)
        guard case .completed(let guarded, _, _, _, _) = protected else { throw BenchError("fleet: could not seed the accounts") }
        try database.setPIN(pin, for: .account(guarded.id), proof: nil)
        let transport = URLSessionTransport(timeout: 10)
        let providers = ProviderDirectory(configuration: ProviderConfiguration(providers: [.demo(issuer: issuer)]), transport: transport)
        let signIn = SignInRun(provider: try await providers.resolve("demo"), mode: .signIn, session: setup, database: database, bus: nil, transport: transport)
        let code = try await signIn.requestCode()
        try await server.approve(userCode: code.userCode, as: "ada")
        let signedIn = try await signIn.finish()
        guard let ada = signedIn.account?.identities.first(where: { $0.identity.provider == "demo" })?.identity else {
            throw BenchError("fleet: the demo sign-in did not finish: \(signedIn.outcome)")
        }
        _ = try database.signOut(session: setup)

        guard let executable = RunningProcess.executableFolder.map({ $0 + "/switchboard-bench" }) else {
            throw BenchError("cannot find this executable (/proc/self/exe)")
        }
        // Time enough for every station to start and listen before the first write.
        let start = now() + 2 + Double(options.stations) * 0.05
        // The server's connections just before the first write: every station started and at rest.
        let atRest = Task.detached { () -> Int? in
            if start - 0.3 > now() { usleep(useconds_t((start - 0.3 - now()) * 1e6)) }
            return try? serverConnections(url)
        }
        let reports = try await withThrowingTaskGroup(of: (Int, ChildProcess.Result).self) { group in
            for index in 0..<options.stations {
                let arguments = [
                    "fleet-station", "--url", stationURL, "--poll-ms", options.pgbouncer ? "\(options.pollMS)" : "0", "--issuer", issuer.absoluteString, "--index", "\(index)", "--stations", "\(options.stations)",
                    "--rounds", "\(options.rounds)", "--interval-ms", "\(options.intervalMS)", "--burst", "\(options.burst)",
                    "--start", String(format: "%.9f", start), "--guarded", "\(guarded.id.rawValue)", "--identity", ada.description,
                ]
                // Waited for on threads of their own: the demo provider answers on this process's shared ones.
                group.addTask {
                    (index, try await onThread { try ChildProcess.run(executable, arguments, environment: ChildProcess.environment(), timeout: 900) })
                }
            }
            var results: [Int: StationReport] = [:]
            for try await (index, result) in group {
                guard result.status == 0, let report = try? JSONDecoder().decode(StationReport.self, from: Data(result.stdout.utf8)) else {
                    throw BenchError("station \(index) failed (\(result.status)): \(result.stderr)")
                }
                results[index] = report
            }
            return (0..<options.stations).map { results[$0]! }
        }
        await server.stop()
        summarize(reports, options: options, atRest: await atRest.value)
    }

    /// The server's client connections to the fleet's database, but this process's own and the one asking.
    static func serverConnections(_ url: String) throws -> Int {
        let connection = try PGConnection.connect(url, applicationName: "switchboard counter")
        defer { connection.close() }
        let count = try connection.query("""
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = 'fleet' AND backend_type = 'client backend' AND application_name NOT IN ('switchboard', 'switchboard counter')
            """)
        return Int(count.text(0, 0) ?? "") ?? -1
    }

    /// Matches each station's writes with every other station's deliveries, and prints the table.
    static func summarize(_ reports: [StationReport], options: Options, atRest: Int?) {
        // Propagation runs from the commit (when the write asked for it) to a delivery; the write before it, and
        // the whole from the write's start, are shown beside it.
        var latencies: [Double] = [], writing: [Double] = [], whole: [Double] = [], lost = 0, duplicated = 0
        for (writer, report) in reports.enumerated() {
            let session = StationReport.session(writer)
            for (k, write) in report.writes.enumerated() {
                writing.append((write.commit - write.start) * 1000)
                let end = k + 1 < report.writes.count ? report.writes[k + 1].start : report.burstStart
                for (listener, other) in reports.enumerated() where listener != writer {
                    let matches = other.arrivals.filter { $0.session == session && $0.account == write.account && $0.at >= write.start && $0.at < end }
                    if matches.isEmpty { lost += 1 } else {
                        latencies.append((matches[0].at - write.commit) * 1000)
                        whole.append((matches[0].at - write.start) * 1000)
                    }
                    if matches.count > 1 { duplicated += matches.count - 1 }
                }
            }
        }
        latencies.sort()
        writing.sort()
        whole.sort()
        let p50 = PropagationBench.percentile(latencies, 0.5), p99 = PropagationBench.percentile(latencies, 0.99)
        func percentiles(_ sorted: [Double]) -> String {
            "\(fixed(PropagationBench.percentile(sorted, 0.5), 2)) / \(fixed(PropagationBench.percentile(sorted, 0.99), 2))"
        }
        let switches = reports.reduce(0) { $0 + $1.burstWrites }
        let burstSeconds = reports.map(\.burstSeconds).max() ?? options.burst
        let looked = reports.reduce(0) { $0 + $1.pinWrong }, locked = reports.reduce(0) { $0 + $1.pinLocked }
        let refreshed = reports.filter { $0.token == "refreshed" }.count
        let revoked = reports.filter { $0.token == "revoked" }.count
        let tokens = Set(reports.compactMap(\.tokenPrint)).count
        let errors = reports.flatMap(\.errors)
        // A default server takes 100 connections, 3 of them kept for superusers.
        let perHundred = atRest.map { $0 > 0 ? Int(97 / (Double($0) / Double(options.stations))) : 0 }
        printTable([
            ["figure", "value", "goal", ""],
            ["stations", "\(options.stations)", "", ""],
            ["TLS to the server", options.sslmode == "disable" || options.pgbouncer ? "no" : "yes", "", ""],
            ["how stations hear of changes", options.pgbouncer ? "poll every \(fixed(options.pollMS, 0)) ms, through PgBouncer" : "LISTEN", "", ""],
            ["server connections, every station at rest", atRest.map(String.init) ?? "?", "", ""],
            ["stations per 100 server connections", perHundred.map(String.init) ?? "?", "≥ 90", verdict((perHundred ?? 0) >= 90)],
            ["propagation, commit to delivery on every other bus, p50 (ms)", fixed(p50, 2), "", ""],
            ["propagation, p99 (ms)", fixed(p99, 2), options.pgbouncer ? "≤ 1.25 × the poll interval" : "≤ \(fixed(goalP99, 0))",
             verdict(p99 <= (options.pgbouncer ? options.pollMS * 1.25 : goalP99))],
            ["the write before it, start to commit, p50 / p99 (ms)", percentiles(writing), "", ""],
            ["start of the write to delivery, p50 / p99 (ms)", percentiles(whole), "", ""],
            ["deliveries expected", "\(reports.reduce(0) { $0 + $1.writes.count } * (options.stations - 1))", "", ""],
            ["deliveries lost", "\(lost)", "0", verdict(lost == 0)],
            ["deliveries duplicated", "\(duplicated)", "0", verdict(duplicated == 0)],
            ["switches and sign-outs per second, all stations", fixed(Double(switches) / max(burstSeconds, 0.001), 0), "", ""],
            ["wrong PINs looked at (\(options.stations * 3) guessed at once)", "\(looked)", "5", verdict(looked == 5)],
            ["wrong PINs refused as locked out", "\(locked)", "", ""],
            ["stations that refreshed Ada's token, one at a time", "\(refreshed)", "\(options.stations)", verdict(refreshed == options.stations)],
            ["refresh tokens spent twice (refused as revoked)", "\(revoked)", "0", verdict(revoked == 0)],
            ["distinct access tokens handed out", "\(tokens)", "\(options.stations)", verdict(tokens == options.stations)],
        ])
        print("")
        figure("fleet-stations", Double(options.stations))
        figure("fleet-server-connections-at-rest", Double(atRest ?? -1))
        figure("fleet-propagation-p50-ms", p50, decimals: 2)
        figure("fleet-propagation-p99-ms", p99, decimals: 2)
        figure("fleet-propagation-max-ms", latencies.last ?? .nan, decimals: 2)
        figure("fleet-deliveries-lost", Double(lost))
        figure("fleet-deliveries-duplicated", Double(duplicated))
        figure("fleet-switches-per-second", Double(switches) / max(burstSeconds, 0.001))
        figure("fleet-pin-tries-looked-at", Double(looked))
        figure("fleet-refresh-tokens-spent-twice", Double(revoked))
        for error in Set(errors).sorted() { print("station error: \(error)") }
    }
}

/// What one station process reports, as JSON on its standard output.
struct StationReport: Codable {
    struct Write: Codable {
        let start: Double
        /// When the write asked for its commit (`AppDatabase.observeCommits`).
        let commit: Double
        /// Who the session acts as after it; nil for anonymous.
        let account: Int64?
    }

    struct Arrival: Codable {
        let at: Double
        let session: String
        let account: Int64?
    }

    var writes: [Write] = []
    var arrivals: [Arrival] = []
    var burstWrites = 0
    /// When the back-to-back writes began (deliveries after it are not the propagation phase's).
    var burstStart = 0.0
    var burstSeconds = 0.0
    var pinWrong = 0
    var pinLocked = 0
    /// "refreshed", "fresh" (another station's refresh was still valid), "revoked" or an error.
    var token = ""
    /// A short fingerprint of the token handed out (never the token).
    var tokenPrint: String?
    var errors: [String] = []

    static func session(_ index: Int) -> String { "station-\(index)/tty1" }
}

extension FleetBench {
    /// One station: `fleet-station --url … --index N …` (see `run`).
    static func station(_ arguments: [String]) async throws {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() { values[name] = iterator.next() }
        guard let url = values["--url"], let issuer = values["--issuer"].flatMap(URL.init(string:)),
            let index = values["--index"].flatMap(Int.init), let stations = values["--stations"].flatMap(Int.init),
            let rounds = values["--rounds"].flatMap(Int.init), let interval = values["--interval-ms"].flatMap(Double.init),
            let burst = values["--burst"].flatMap(Double.init), let start = values["--start"].flatMap(Double.init),
            let poll = values["--poll-ms"].flatMap(Double.init),
            let guarded = values["--guarded"].flatMap(Int64.init), let identity = values["--identity"].flatMap(Identity.init(parsing:))
        else { throw BenchError("fleet-station: missing or bad arguments") }
        let database = try AppDatabase(
            url: url, watching: poll > 0 ? .poll(seconds: poll / 1000) : .listen, applicationName: "switchboard station-\(index)")
        let session = SessionKey(StationReport.session(index))!
        let accounts = try database.accounts().map(\.id).filter { $0.rawValue != guarded }
        guard let account = accounts.first else { throw BenchError("fleet-station: no account to switch to") }
        let report = Mutex(StationReport())
        let bus = NotificationBus()
        let subscription = bus.subscribe(UserStatusChanged.self, on: .inline) { change in
            let at = now()
            guard change.session != session else { return }
            report.withLock { $0.arrivals.append(StationReport.Arrival(at: at, session: change.session.rawValue, account: change.current.id?.rawValue)) }
        }
        let feed = try ChangeFeed(database: database, bus: bus) { error in report.withLock { $0.errors.append("\(error)") } }
        let asked = Mutex(0.0)
        database.observeCommits { asked.withLock { $0 = now() } }
        func record(_ error: any Error) { report.withLock { $0.errors.append("\(error)") } }
        func wait(until time: Double) { if time > now() { usleep(useconds_t((time - now()) * 1e6)) } }

        // 1. Propagation: evenly spread over the fleet, a switch then a sign-out, one per interval.
        let spacing = interval / 1000
        for k in 0..<rounds {
            wait(until: start + spacing * (Double(k) + Double(index) / Double(stations)))
            let began = now()
            do {
                let change = try k % 2 == 0 ? database.switchAccount(to: account, session: session) : database.signOut(session: session)
                let commit = asked.withLock { $0 }
                report.withLock {
                    $0.writes.append(StationReport.Write(start: began, commit: commit, account: change.current.id?.rawValue))
                }
            } catch { record(error) }
        }
        // 2. As many switches and sign-outs as fit in `burst` seconds.
        let burstStart = start + spacing * Double(rounds) + 1
        wait(until: burstStart)
        var written = 0
        while now() < burstStart + burst {
            do {
                _ = try written % 2 == 0 ? database.switchAccount(to: account, session: session) : database.signOut(session: session)
                written += 1
            } catch { record(error) }
        }
        let burstSeconds = now() - burstStart
        // 3. Three wrong PINs for the protected account, every station at once.
        wait(until: burstStart + burst + 1)
        for _ in 0..<3 {
            do {
                _ = try database.switchAccount(to: AccountID(guarded), session: session, pin: .account("0000"))
            } catch .wrongPIN { report.withLock { $0.pinWrong += 1 } } catch .pinLockedOut { report.withLock { $0.pinLocked += 1 } } catch {
                record(error)
            }
        }
        // 4. A fresh access token of Ada's (her 1-second tokens always need a refresh), every station at once.
        wait(until: burstStart + burst + 3)
        let providers = ProviderDirectory(configuration: ProviderConfiguration(providers: [.demo(issuer: issuer)]), transport: URLSessionTransport(timeout: 10))
        let tokens = AccessTokens(database: database, providers: providers, bus: nil)
        do {
            // An hour: never true of a 1-second token, so every station refreshes, one after another.
            let fresh = try await tokens.token(for: identity, minValid: 3600)
            // FNV-1a of the token: the same in every process, and not the token.
            let print = fresh.tokens.accessToken.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            report.withLock {
                $0.token = fresh.refreshed ? "refreshed" : "fresh"
                $0.tokenPrint = String(print, radix: 16)
            }
        } catch .revoked {
            report.withLock { $0.token = "revoked" }
        } catch {
            report.withLock { $0.token = "\(error)" }
        }
        // The last deliveries.
        usleep(500_000)
        feed.cancel()
        withExtendedLifetime(subscription) {}
        report.withLock {
            $0.burstWrites = written
            $0.burstStart = burstStart
            $0.burstSeconds = burstSeconds
        }
        let encoded = try JSONEncoder().encode(report.withLock { $0 })
        print(String(decoding: encoded, as: UTF8.self))
    }
}

/// `work`'s result, run on a thread of its own rather than the shared pool.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
