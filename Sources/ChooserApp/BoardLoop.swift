import ChooserUI
import Dispatch
import Foundation
import Services
import Store
import SwitchboardCore
import TerminalUI

/// What the operator's board needs of the world, each piece swappable in tests.
public struct BoardEnvironment: Sendable {
    public var database: AppDatabase
    /// For revoking a disconnected person's tokens at their providers.
    public var providers: ProviderDirectory
    public var now: @Sendable () -> Moment
    /// The theme after the one named, and a warning when its file was bad.
    public var nextTheme: @Sendable (String) -> (Theme, String?)
    /// How many of a station's newest events the detail pane reads.
    public var eventsRead = 40

    public init(
        database: AppDatabase, providers: ProviderDirectory, now: @escaping @Sendable () -> Moment = { Moment.now() },
        nextTheme: @escaping @Sendable (String) -> (Theme, String?)
    ) {
        self.database = database
        self.providers = providers
        self.now = now
        self.nextTheme = nextTheme
    }
}

/// The board's loop: owns `BoardState`, reads the fleet when the store's
/// change watch wakes it (never on a timer), ticks once a second for the
/// idle times, carries out the reducer's effects and asks for a frame, at
/// most one a turn of the main actor. Heartbeats wake no watch, so the one
/// other read is when a station that was up would turn offline by the
/// last read's heartbeats (`BoardState.nextOfflineCheck`): with stations
/// beating, about one read per heartbeat interval for the whole fleet.
@MainActor
public final class BoardLoop {
    public private(set) var state: BoardState
    private let environment: BoardEnvironment
    private let render: @MainActor (BoardState) -> Void
    private var watch: (any ChangeWatch)?
    private lazy var frames = FrameRequests { [unowned self] in self.render(self.state) }
    private var readScheduled = false
    private var ticker: (any DispatchSourceTimer)?
    private var quitContinuation: CheckedContinuation<Void, Never>?
    /// How many times the loop woke for its tick and for the store, and how
    /// many reads a station's missed heartbeats asked for: for the benchmark.
    public private(set) var wakeUps = (ticks: 0, store: 0, offlineChecks: 0)
    /// The looks after a SQLite wake-up, in milliseconds after the one before (as the change feed's).
    static let lookAgain = [1, 4, 16, 64]
    private var looks = 0

    public init(state: BoardState, environment: BoardEnvironment, render: @escaping @MainActor (BoardState) -> Void) {
        self.state = state
        self.environment = environment
        self.render = render
    }

    /// Starts watching the store, reads the fleet, draws the first frame and starts the clock.
    public func start() {
        do {
            watch = try environment.database.watchChanges(on: DispatchQueue(label: "switchboard.board")) { [weak self] event in
                Task { @MainActor in self?.watched(event) }
            }
        } catch {
            reduce(.notice("Changes will show only after a restart: \(error)", isError: true))
        }
        readFleet()
        flush()
        startTicker()
    }

    /// Runs until the operator quits.
    public func run() async {
        start()
        if !state.isRunning { return stop() }
        await withCheckedContinuation { quitContinuation = $0 }
    }

    /// Stops the watch and the clock.
    public func stop() {
        watch?.cancel()
        watch = nil
        ticker?.cancel()
        ticker = nil
    }

    /// Handles one action: reduce, carry out the effects, ask for a frame.
    public func send(_ action: BoardAction) {
        reduce(action)
        frames.request()
    }

    /// Reduces `action` and carries out its effects: the only way the state changes.
    private func reduce(_ action: BoardAction) {
        for effect in state.reduce(action) { perform(effect) }
    }

    /// Draws now.
    public func flush() {
        frames.drawNow()
    }

    /// Once a second, on the second: idle times and countdowns move on with
    /// no read. A timer on the main queue itself, so a tick wakes one thread
    /// once, not a chain of tasks hopping between threads.
    private func startTicker() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let fraction = environment.now().secondsSince1970.truncatingRemainder(dividingBy: 1)
        timer.schedule(deadline: .now() + .milliseconds(Int((1 - fraction) * 1000) + 5), repeating: .seconds(1), leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.tick() } }
        timer.activate()
        ticker = timer
    }

    /// The clock's tick, drawn in the same turn: no task is made for it.
    private func tick() {
        wakeUps.ticks += 1
        let now = environment.now()
        reduce(.tick(now))
        // Heartbeats wake nobody: a station about to turn offline is read once, then, to see whether it beat.
        if let due = state.nextOfflineCheck, due <= now {
            wakeUps.offlineChecks += 1
            readFleet()
        }
        flush()
    }

    // MARK: The store

    private func watched(_ event: ChangeWatchEvent) {
        wakeUps.store += 1
        switch event {
        case .wake, .pushed:
            scheduleRead()
            if watch?.looksAgain == true { lookAgain() }
        case .offline(let detail):
            send(.storeOffline(detail.displaySafe))
        case .online:
            send(.storeOffline(nil))
            scheduleRead()
        }
    }

    /// One read per turn, however many wake-ups came in it.
    private func scheduleRead() {
        guard !readScheduled else { return }
        readScheduled = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.readScheduled = false
            self.readFleet()
        }
    }

    /// A SQLite commit may show a moment after its wake-up: read again a few times.
    private func lookAgain() {
        looks += 1
        let wakeUp = looks
        Task { @MainActor [weak self] in
            for delay in Self.lookAgain {
                try? await Task.sleep(for: .milliseconds(delay))
                guard let self, self.looks == wakeUp, self.watch != nil else { return }
                self.readFleet(onlyIfChanged: true)
            }
        }
    }

    /// Reads every station and hands the rows to the reducer (unless they are what it has, when asked).
    private func readFleet(onlyIfChanged: Bool = false) {
        do {
            let rows = try environment.database.fleet().map(Self.row)
            if onlyIfChanged, Set(rows) == Set(state.stations) { return }
            send(.loaded(rows))
        } catch {
            send(.notice("Reading the fleet failed: \(error)", isError: true))
        }
    }

    /// An error's description as a sentence: a capital first, a full stop last.
    nonisolated static func sentence(_ text: String) -> String {
        (text.prefix(1).uppercased() + text.dropFirst()) + (text.hasSuffix(".") ? "" : ".")
    }

    nonisolated static func moment(_ date: Date) -> Moment { Moment(secondsSince1970: date.timeIntervalSince1970) }

    /// A fleet's row as the board holds it.
    nonisolated public static func row(_ fleet: FleetStation) -> BoardStation {
        let report = fleet.report
        return BoardStation(
            station: report.station, terminal: report.terminal, session: report.session, active: fleet.account.map { AccountID(rawValue: $0) },
            activeName: fleet.accountName, since: moment(max(report.startedAt, fleet.since ?? report.startedAt)), facts: fleet.facts,
            version: report.version, started: moment(report.startedAt), heartbeat: moment(report.heartbeatAt))
    }

    /// An event of the log as the detail pane shows it.
    nonisolated public static func event(_ entry: LogEntry) -> BoardEvent {
        BoardEvent(
            id: entry.id, at: moment(entry.at), session: entry.session, kind: entry.kind, account: entry.account.map { AccountID(rawValue: $0) },
            who: EventWording.who(entry), what: EventWording.what(entry))
    }

    // MARK: Effects

    private func perform(_ effect: BoardEffect) {
        let database = environment.database
        switch effect {
        case .loadEvents(let station, let terminal, _):
            do {
                let events = try database.events(LogQuery(station: station, limit: environment.eventsRead)).map(Self.event)
                send(.eventsLoaded(events, of: station + "/" + terminal))
            } catch {
                reduce(.notice("Reading the events failed: \(error)", isError: true))
            }
        case .loadIdentities(let account, let name, let station):
            do {
                let identities = try database.account(account)?.identities ?? []
                send(.identitiesLoaded(identities, of: account, name: name, station: station))
            } catch {
                reduce(.notice("Reading \(name)'s identities failed: \(error)", isError: true))
            }
        case .checkOperatorPIN(let digits, let then):
            // Off the main actor: the PIN's hash takes a moment.
            let now = Date(timeIntervalSince1970: environment.now().secondsSince1970)
            Task.detached { [weak self] in
                let problem: String?
                do throws(StoreError) {
                    try database.checkOperatorPIN(digits, at: now)
                    problem = nil
                } catch {
                    problem = Self.sentence(error.description)
                }
                await self?.send(.pinChecked(digits: digits, then: then, problem: problem))
            }
        case .perform(let action, let pin):
            act(action, pin: pin)
        case .nextTheme:
            let (theme, warning) = environment.nextTheme(state.theme.name)
            if let warning { reduce(.notice(warning, isError: true)) }
            send(.themeChanged(theme))
        case .quit:
            stop()
            quitContinuation?.resume()
            quitContinuation = nil
        }
    }

    /// Does an operator action off the main actor (its store write checks
    /// the operator PIN, whose hash takes a moment), in the operator's
    /// session; the board hears of its effect through the store's watch like
    /// any other change. A disconnect is told as soon as the store forgot
    /// the identity; what its provider said of revoking comes after.
    private func act(_ action: OperatorAction, pin: String) {
        let environment = environment
        let operatorSession = SessionKey(stored: state.operatorSession)
        let now = Date(timeIntervalSince1970: environment.now().secondsSince1970)
        Task.detached { [weak self] in
            var forgotten: DisconnectResult?
            let outcome: ActionOutcome
            do throws(StoreError) {
                var aside: String?
                switch action {
                case .signOut(let session, _):
                    _ = try environment.database.signOut(
                        session: SessionKey(stored: session), byOperatorAt: operatorSession, operatorPIN: pin, at: now)
                case .resetPIN(let account, _):
                    try environment.database.resetPINAttempts(of: account, operatorPIN: pin, byOperatorAt: operatorSession, at: now)
                case .disconnect(let identity, let account, _, _):
                    let disconnect = Disconnect(database: environment.database, providers: environment.providers, bus: nil)
                    let result = try disconnect.forget(identity.identity, of: account, byOperatorAt: operatorSession, operatorPIN: pin, at: now)
                    forgotten = result
                    if result.accountRemoved { aside = "The account had no other identity and is gone; every session acting as it is signed out." }
                }
                outcome = .done(aside: aside)
            } catch {
                outcome = .refused(Self.sentence(error.description), pinRefused: Self.refusesOperatorPIN(error))
            }
            await self?.send(.acted(action, outcome))
            // This process's own write wakes no watch of its own on every engine: read now.
            await self?.readFleet()
            if let forgotten {
                let disconnect = Disconnect(database: environment.database, providers: environment.providers, bus: nil)
                let revocation = await disconnect.revoke(forgotten)
                if let said = revocation.sentence(provider: forgotten.identity.provider) {
                    let failed = if case .failed = revocation { true } else { false }
                    await self?.send(.notice(said, isError: failed))
                }
            }
        }
    }

    /// Whether `error` refused the operator PIN (wrong, locked out, not set), so the board asks for it again.
    nonisolated static func refusesOperatorPIN(_ error: StoreError) -> Bool {
        switch error {
        case .wrongPIN, .pinLockedOut, .pinNotSet, .pinRequired: true
        default: false
        }
    }
}
