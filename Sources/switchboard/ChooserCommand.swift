import ScreenKit
import ArgumentParser
import Configuration
import CursesBackend
import DeviceFlow
import Foundation
import StationConfig
import Store
import Services
import ChooserApp
import ChooserUI
import SwitchboardCore
import Synchronization
import TerminalUI
import ToolCredentials

/// `switchboard` with no subcommand: the full-screen account chooser.
struct ChooserCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "choose",
        abstract: "Open the account chooser (what `switchboard` alone does).")

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "A colour theme: default, light, high-contrast, monochrome, or a theme file's path (default: config.toml's theme; monochrome when NO_COLOR is set).")
    var theme: String?

    func validate() throws {
        if options.json { throw ValidationError("the chooser has no --json; scripts use the subcommands (switchboard --help)") }
    }

    func run(io: CommandIO) async throws {
        try await Self.open(CommandContext(options, io: io), theme: theme, station: nil)
    }

    /// Opens the chooser on this terminal; locked as a station with `station`'s settings.
    static func open(_ context: CommandContext, theme: String?, station: StationSettings?) async throws {
        // The chooser's session is the terminal it draws on.
        context.io.terminal = { TerminalIdentity.on(STDIN_FILENO) }
        let io = context.io
        guard io.stdinIsTerminal, io.stdoutIsTerminal else {
            throw io.fail("the chooser needs a terminal; scripts use the subcommands (switchboard --help)", .usage)
        }
        let session = try context.sessionKey(writes: true)
        let database: AppDatabase
        // A store this process may not write is shown, read-only; every change then says why it cannot be made.
        do { database = try context.openDatabase(.readOnlyIfUnwritable, waitForServer: true) } catch {
            throw io.fail(error.description, ExitStatus(error))
        }
        let readOnlyNotice = database.isReadOnly
            ? "The store is read-only (\(database.path)): you can look, but nothing can be changed." : nil
        let configuration = try context.configuration()
        let guide: Guide
        do { guide = try Guide.bundled() } catch { throw io.fail(error.description, .configuration) }
        let environment = io.environment
        let selection = ThemeSelection.chooser(flag: theme, configured: configuration.theme, environment: environment)
        let notices = [context.missingConfigNotice(), readOnlyNotice].compactMap { $0 }
        // A station reports itself to the fleet (`switchboard fleet`); a plain chooser does not.
        let reporter = station == nil ? nil : context.stationReporter(database: database, session: session)
        let (failures, signal) = try await Chooser.run(
            session: session, database: database, configuration: configuration.providers, git: configuration.git, guide: guide,
            selection: selection, environment: environment, notices: notices, station: station, keepEvents: configuration.store.eventsKept,
            reporter: reporter, storeDeadline: configuration.store.deadline)
        for failure in failures { io.stderr.write("switchboard: \(failure)\n") }
        // Ended by a signal: the terminal is back; the status says which, as a shell's would.
        if let signal { throw ExitCode(128 + signal) }
    }
}

/// Wires the chooser to the terminal and runs it until the person quits.
@MainActor
enum Chooser {
    /// Shows `notices` (a configuration file not found, a read-only store) as toasts; runs as
    /// a station when `station` is given; prunes events older than `keepEvents`
    /// in the background (`EventPruner`). Returns what went wrong on the way
    /// (failing bus subscribers), to print once the terminal is back, and
    /// the signal (SIGTERM, SIGHUP, SIGQUIT, SIGINT) that ended it, if one did.
    /// On `tour`, the chooser walks itself through its script, with no
    /// change feed: its stores are its own. Sign-ins and token checks keep
    /// time by `clock` (the tour's may run fast).
    static func run(
        session: SessionKey, database: AppDatabase, configuration: ProviderConfiguration, git: GitSettings, guide: Guide,
        selection: ThemeSelection, environment: [String: String], notices: [String], station: StationSettings?, keepEvents: Duration,
        reporter: StationReporter? = nil, storeDeadline: Double = StoreDeadline.standard, clock: any FlowClock = SystemFlowClock(),
        tour: (TourState, TourDriver)? = nil
    ) async throws -> (failures: [String], signal: Int32?) {
        let failures = Mutex<[String]>([])
        let bus = NotificationBus(onFailure: { failure in failures.withLock { $0.append(failure.description) } })
        let providers = ProviderDirectory(configuration: configuration, transport: URLSessionTransport(timeout: 15))
        // Before the store is first read, so that no other program's change falls in between.
        var feedProblem: String?
        var feed: ChangeFeed?
        if tour == nil {
            do {
                feed = try ChangeFeed(database: database, bus: bus) { error in failures.withLock { $0.append("\(error)") } }
            } catch {
                (feed, feedProblem) = (nil, "Changes made by other programs will show only after a restart: \(error)")
            }
        }
        defer { feed?.cancel() }
        let listening = feed
        let screen = TerminalProgram()
        let terminal = screen.terminal
        // A station takes Ctrl-Z as a key, which it refuses, and is not stopped by kill -TSTP either.
        if station != nil { terminal.allowsSuspend = false }
        // NO_COLOR is decided once, by ThemeSelection: monochrome unless a theme was asked for.
        let colors = terminal.colors
        var state = AppState.opening(
            session: session, size: terminal.size, now: Moment.now(), guide: guide, selection: selection, colors: colors,
            providers: configuration.providers.map { ProviderChoice(id: $0.id, name: $0.name, problem: $0.problem, isLocalDemo: $0.kind == .demo) })
        var handOff: ChooserEnvironment.HandOff?
        if let station, let command = station.command {
            let handOffCommand = StationHandOff(
                command: command, idleLimit: station.idleTimeout + station.countdown, grace: StationHandOff.grace(environment), session: session,
                database: database, configuration: configuration, git: git, tokens: AccessTokens(database: database, providers: providers, bus: bus))
            handOff = { id in
                reporter?.handOff(running: true)
                defer { reporter?.handOff(running: false) }
                return await handOffCommand.run(id, terminal: terminal)
            }
        }
        for notice in notices + [feedProblem].compactMap({ $0 }) { state.notify(notice.displaySafe, .warning) }
        let environment = ChooserEnvironment(
            database: database, bus: bus, providers: providers, clock: clock,
            copy: { terminal.copyToClipboard($0) },
            open: ChooserEnvironment.xdgOpen,
            nextTheme: screen.nextTheme,
            runCommand: { await StationCommand.run($0) }, handOff: handOff, tour: tour?.1, storeDeadline: storeDeadline,
            storeReturned: { listening?.retryNow() })
        // Off the paths a person waits on: after the first frame, a batch at a time (a tour's stores are thrown away).
        let pruner = tour == nil ? EventPruner(database: database, keep: keepEvents, onError: { error in
            failures.withLock { $0.append("pruning old events: \(error)") }
        }) : nil
        pruner?.start()
        let signal: Int32?
        if let station {
            // Local time for the top bar: the offset asked for each moment, so summer time shows.
            // A station that reports itself acts on its session once the store says this machine holds its name.
            let program = Station(
                state, settings: station, clock: LocalClock { TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: $0.secondsSince1970)) },
                holdsName: reporter == nil)
            let loop = ChooserLoop(program: program, environment: environment, render: { terminal.draw(StationScreen.draw($0)) })
            reporter?.onName { taken in Task { @MainActor in loop.send(layer: .stationName(taken: taken)) } }
            reporter?.onClockSkew { skew in Task { @MainActor in loop.send(layer: .clockSkew(skew)) } }
            reporter?.start()
            signal = await run(loop, on: screen) { if case .key = $0 { reporter?.keyPressed(at: Date()) } }
            reporter?.stop()
        } else if let (script, _) = tour {
            let loop = ChooserLoop(program: Tour(state, tour: script), environment: environment, render: { terminal.draw(TourScreen.draw($0)) })
            signal = await run(loop, on: screen)
        } else {
            let loop = ChooserLoop(state: state, environment: environment, render: { terminal.draw(Screen.draw($0)) })
            signal = await run(loop, on: screen)
        }
        pruner?.cancel()
        await providers.shutdown()
        return (failures.withLock { $0 }, signal)
    }

    /// Runs `loop` on the terminal until the person quits (`heard` hears each input first); returns the signal that ended it, if one did.
    private static func run<P: ChooserProgram>(
        _ loop: ChooserLoop<P>, on screen: TerminalProgram, heard: @escaping @MainActor (InputEvent) -> Void = { _ in }
    ) async -> Int32? {
        await screen.run(
            send: { event in
                heard(event)
                loop.send(.input(event))
            },
            terminate: { loop.send(.terminate) },
            run: loop.run)
    }
}
