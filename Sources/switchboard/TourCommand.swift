import ArgumentParser
import ChooserApp
import ChooserUI
import Configuration
import DemoProvider
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore
import Synchronization
import TerminalUI
import ToolCredentials

/// `switchboard demo tour`: the chooser against a demo provider of its own,
/// walking itself through every outcome of a sign-in with a caption each,
/// in a store of its own in a temporary folder; a key hands it to the
/// person, and after `--idle` seconds without one it starts again.
struct DemoTour: IOCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "Run the chooser as a booth that demonstrates itself: every sign-in outcome, with captions, again and again.",
        discussion: """
            The tour runs its own demo provider on 127.0.0.1 and keeps its accounts in a temporary folder, \
            never in your store. Any key hands the chooser to the person at the keyboard; after --idle \
            seconds without a key, the tour starts again with an empty store. q or Ctrl-C ends it.
            """)

    @Option(name: .long, help: "Seconds without a key before the tour takes the chooser back.")
    var idle: Double = 60

    @Option(name: .long, help: "Seconds each beat of the tour lasts: how long captions and screens stay before it moves on.")
    var pace: Double = 1.5

    @Option(name: .long, help: "A colour theme: default, light, high-contrast, monochrome, or a theme file's path.")
    var theme: String?

    /// For tests, hidden from the help: the tour's sign-ins and its demo
    /// provider share a clock (`FastClock`) that runs this many times as fast
    /// as the wall clock, so poll intervals, `slow_down`'s extra 5 s and a
    /// code's lifetime pass that much sooner while every exchange keeps the
    /// protocol's seconds (the inspector shows them). With `--pace` (the
    /// beats) and `--idle`, it lets the tmux test see a whole round in a few
    /// seconds. The sign-in dialog's countdown stays on the wall clock, so
    /// above 1 it shows more time left than a code has.
    @Option(name: .long, help: ArgumentHelp("How many times as fast as the wall clock the sign-ins' clock runs (for tests).", visibility: .hidden))
    var clockSpeed: Double = 1

    func validate() throws {
        guard idle.isFinite, idle >= 1 else { throw ValidationError("--idle must be at least 1 second (got \(idle))") }
        guard pace.isFinite, pace >= 0.05, pace <= 60 else { throw ValidationError("--pace must be 0.05…60 seconds (got \(pace))") }
        guard clockSpeed.isFinite, clockSpeed >= 1, clockSpeed <= 100 else {
            throw ValidationError("--clock-speed must be 1…100 (got \(clockSpeed))")
        }
    }

    func run(io: CommandIO) async throws {
        var io = io
        io.terminal = { TerminalIdentity.on(STDIN_FILENO) }
        guard io.stdinIsTerminal, io.stdoutIsTerminal else { throw io.fail("the tour needs a terminal", .usage) }
        let session: SessionKey
        switch SessionKey.resolve(explicit: nil, environment: io.environment, terminal: io.terminal()) {
        case .success(let key): session = key
        case .failure(let error): throw io.fail(error.description, .usage)
        }
        let stores: TourStores
        do { stores = try TourStores() } catch { throw io.fail("no temporary folder for the tour: \(error)", .store) }
        defer { stores.remove() }
        let database: AppDatabase
        do { database = try stores.fresh() } catch { throw io.fail("the tour's store: \(error)", .store) }

        let clock: any FlowClock = clockSpeed == 1 ? SystemFlowClock() : FastClock(speed: clockSpeed)
        let server = DemoServer(settings: DemoSettings(interval: TourState.pollInterval), now: { clock.now() })
        let url: URL
        do { url = try await server.start(port: 0) } catch { throw io.fail("cannot start the tour's demo provider: \(error)", .offline) }
        let first = ProviderSettings.demo(issuer: url)
        var second = ProviderSettings.demo(issuer: url)
        second.id = "demo-lab"
        second.displayName = "Demo Lab"
        let api = DemoAPI(server: url, transport: URLSessionTransport(timeout: 10))
        let driver = TourDriver(
            provider: { request in await Self.carryOut(request, with: api) },
            freshStore: { try stores.fresh() })
        // The code that expires lives four beats (at least two seconds of the sign-ins' clock).
        let tour = TourState(
            script: TourState.script(first: first.id, second: second.id, expiry: max(2, Int((pace * 4 * clockSpeed).rounded(.up)))),
            beat: pace, idle: idle)
        let guide: Guide
        do { guide = try Guide.bundled() } catch { throw io.fail(error.description, .configuration) }
        let selection = ThemeSelection.chooser(flag: theme, configured: nil, environment: io.environment)
        let (failures, signal) = try await Chooser.run(
            session: session, database: database, configuration: ProviderConfiguration(providers: [first, second]), git: GitSettings(),
            guide: guide, selection: selection, environment: io.environment, notices: [], station: nil,
            keepEvents: StoreSettings.defaultKeepEvents, clock: clock, tour: (tour, driver))
        await server.stop()
        for failure in failures { io.stderr.write("switchboard: \(failure)\n") }
        if let signal { throw ExitCode(128 + signal) }
    }

    /// A request to the tour's demo provider, through its API; nil when done.
    private static func carryOut(_ request: TourRequest, with api: DemoAPI) async -> String? {
        do {
            switch request {
            case .settings(let expiresIn, let interval, let slowDownPolls):
                return try await api.settings(expiresIn: expiresIn, interval: interval, slowDownPolls: slowDownPolls)
            case .approve(let code, let person):
                return try await api.decide(userCode: code, person: person, deny: false).problem
            case .deny(let code):
                return try await api.decide(userCode: code, person: "ada", deny: true).problem
            case .freshStore:
                return "the loop makes the store"
            }
        } catch {
            return error.description
        }
    }
}

/// The tour's stores: one SQLite file per round in a temporary folder of
/// its own (0700), the last round's removed when the next one starts; the
/// folder is removed when the tour ends.
final class TourStores: Sendable {
    let folder: String
    private let round = Mutex(0)

    init() throws {
        var template = Array((NSTemporaryDirectory() + "switchboard-tour-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        folder = String(cString: made)
    }

    /// An empty store for the next round.
    func fresh() throws -> AppDatabase {
        let next = round.withLock { round in
            if round > 0 { removeFiles(of: round) }
            round += 1
            return round
        }
        return try AppDatabase(path: path(next))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    private func path(_ round: Int) -> String { "\(folder)/round-\(round).sqlite" }

    private func removeFiles(of round: Int) {
        for suffix in ["", "-wal", "-shm", "-changed", "-refresh.lock"] { unlink(path(round) + suffix) }
    }
}
