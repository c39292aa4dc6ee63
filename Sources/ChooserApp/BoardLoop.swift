import BoardUI
import ScreenKit
import ChooserUI
import Dispatch
import Foundation
import Services
import Store
import SwitchboardCore
import Synchronization
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
    /// Seconds the store has to answer a call before the board counts it
    /// offline (`[store] timeout`).
    public var storeDeadline: Double

    public init(
        database: AppDatabase, providers: ProviderDirectory, now: @escaping @Sendable () -> Moment = { Moment.now() },
        nextTheme: @escaping @Sendable (String) -> (Theme, String?), storeDeadline: Double = StoreDeadline.standard
    ) {
        self.storeDeadline = storeDeadline
        self.database = database
        self.providers = providers
        self.now = now
        self.nextTheme = nextTheme
    }
}

/// The board's loop: the board's effects, carried out for the shell
/// (`ProgramShell`) that owns `BoardState`, its frames and its tick once a
/// second for the idle times. It reads the fleet when the store's change
/// watch wakes it (never on a timer). Heartbeats wake no watch, so the one
/// other read is when a station that was up would turn offline by the
/// last read's heartbeats (`BoardState.nextOfflineCheck`): with stations
/// beating, about one read per heartbeat interval for the whole fleet.
/// Like the chooser's, it calls the store only through a `StoreLink`: off
/// the main actor, in order, with a deadline, offline past it.
@MainActor
public final class BoardLoop {
    /// The loop every full-screen program runs: state, frames, timers, the store's line.
    let shell: ProgramShell<BoardState>
    public var state: BoardState { shell.state }
    private let environment: BoardEnvironment
    private var watch: (any ChangeWatch)?
    /// The board's line to the store.
    var link: StoreLink { shell.link }
    private var readScheduled = false
    /// How many times the loop woke for its tick and for the store, and how
    /// many reads a station's missed heartbeats asked for: for the benchmark.
    public private(set) var wakeUps = (ticks: 0, store: 0, offlineChecks: 0)
    /// The looks after a SQLite wake-up, in milliseconds after the one before (as the change feed's).
    static let lookAgain = [1, 4, 16, 64]
    private var looks = 0
    /// Seconds the fleet's clock (the server's) is ahead of this machine's, as the last read of the fleet found.
    private let fleetOffset = SharedOffset()

    public init(state: BoardState, environment: BoardEnvironment, render: @escaping @MainActor (BoardState) -> Void) {
        self.environment = environment
        // The board judges stations by the fleet's clock (the server's): this machine's, moved by how far it is off.
        let offset = fleetOffset, local = environment.now
        shell = ProgramShell(
            state: state, now: { local().advanced(by: offset.seconds) }, deadline: environment.storeDeadline, render: render)
        let database = environment.database
        shell.database = { database }
        shell.perform = { [weak self] in self?.perform($0) }
        // Back: the fleet read again, and the watch told to listen again now.
        shell.storeReturned = { [weak self] in
            self?.watch?.retryNow()
            self?.scheduleRead()
        }
        shell.ticked = { [weak self] in self?.ticked($0) }
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
        // The first frame waits for the fleet, or for the store to count as offline.
        readFleet(holdsFrame: .untilAnswered)
        shell.endTurn()
    }

    /// Runs until the operator quits.
    public func run() async {
        start()
        await shell.waitUntilStopped()
        stop()
    }

    /// Stops the watch, the clock and the store's line.
    public func stop() {
        watch?.cancel()
        watch = nil
        shell.stop()
    }

    /// Handles one action: reduce, carry out the effects, ask for a frame.
    public func send(_ action: BoardAction) {
        shell.send(action)
    }

    /// Reduces `action` and carries out its effects: the only way the state changes.
    private func reduce(_ action: BoardAction) {
        shell.reduce(action)
    }

    /// Draws now.
    public func flush() {
        shell.flush()
    }

    /// After the clock's tick: a station about to turn offline is read once,
    /// to see whether it beat (heartbeats wake nobody).
    private func ticked(_ now: Moment) {
        wakeUps.ticks += 1
        if let due = state.nextOfflineCheck, due <= now {
            wakeUps.offlineChecks += 1
            readFleet()
        }
    }

    // MARK: The store

    private func watched(_ event: ChangeWatchEvent) {
        wakeUps.store += 1
        switch event {
        case .wake, .pushed:
            scheduleRead()
            if watch?.looksAgain == true { lookAgain() }
        case .offline(let detail):
            link.heard(offline: detail)
            send(.storeOffline(detail.displaySafe))
        case .online:
            link.heard(offline: nil)
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
    private func readFleet(onlyIfChanged: Bool = false, holdsFrame: StoreLink.FrameHold = .standard) {
        let local = environment.now, offset = fleetOffset
        link.call(environment.database, holdsFrame: holdsFrame, { db throws(StoreError) in
            offset.set(try db.fleetClock { Date(timeIntervalSince1970: local().secondsSince1970) }.offset)
            return try db.fleet().map(Self.row)
        }) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let rows):
                if onlyIfChanged, Set(rows) == Set(self.state.stations) { return }
                self.send(.loaded(rows))
            case .failure(let error):
                self.failed("Reading the fleet failed", error)
            }
        }
    }

    /// Says a failure: the link's banner says a store gone offline; the rest as a notice.
    private func failed(_ what: String, _ error: StoreError) {
        if case .offline = error { return }
        send(.notice("\(what): \(error)", isError: true))
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
            version: report.version, started: moment(report.startedAt), heartbeat: moment(report.heartbeatAt), clockOff: report.clockOff())
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
            let limit = environment.eventsRead
            link.call(database, { db throws(StoreError) in try db.events(LogQuery(station: station, limit: limit)).map(Self.event) }) {
                [weak self] result in
                switch result {
                case .success(let events): self?.send(.eventsLoaded(events, of: station + "/" + terminal))
                case .failure(let error): self?.failed("Reading the events failed", error)
                }
            }
        case .loadIdentities(let account, let name, let station):
            link.call(database, { db throws(StoreError) in try db.account(account)?.identities ?? [] }) { [weak self] result in
                switch result {
                case .success(let identities): self?.send(.identitiesLoaded(identities, of: account, name: name, station: station))
                case .failure(let error): self?.failed("Reading \(name)'s identities failed", error)
                }
            }
        case .checkOperatorPIN(let digits, let then):
            // Through the link: the PIN's hash takes a moment, and the server may not answer.
            // The fleet's time, as the board judges the lockout by.
            let now = Date(timeIntervalSince1970: shell.now().secondsSince1970)
            link.call(database, { db throws(StoreError) in try db.checkOperatorPIN(digits, at: now) }) { [weak self] result in
                let (check, problem): (PINCheck, String?) =
                    switch result {
                    case .success: (.accepted, nil)
                    case .failure(let error): PINCheck.refusal(error).map { ($0, nil) } ?? (.failed, Self.sentence(error.description))
                    }
                self?.send(.pinChecked(digits: digits, then: then, check: check, problem: problem))
            }
        case .perform(let action, let pin):
            act(action, pin: pin)
        case .nextTheme:
            let (theme, warning) = environment.nextTheme(state.theme.name)
            if let warning { reduce(.notice(warning, isError: true)) }
            // In force at once, so that the next `t` moves on from it.
            reduce(.themeChanged(theme))
            reduce(.notice(ThemeCycle.said(theme.name), isError: false))
        case .quit:
            stop()
        }
    }

    /// Does an operator action through the link (its store write checks the
    /// operator PIN, whose hash takes a moment), in the operator's session;
    /// the board hears of its effect through the store's watch like any
    /// other change. A disconnect is told as soon as the store forgot the
    /// identity; what its provider said of revoking comes after, off the
    /// store's line.
    private func act(_ action: OperatorAction, pin: String) {
        let environment = environment
        let operatorSession = SessionKey(stored: state.operatorSession)
        let now = Date(timeIntervalSince1970: shell.now().secondsSince1970)
        link.call(environment.database, { db throws(StoreError) -> DisconnectResult? in
            switch action {
            case .signOut(let session, _):
                _ = try db.signOut(session: SessionKey(stored: session), byOperatorAt: operatorSession, operatorPIN: pin, at: now)
                return nil
            case .resetPIN(let account, _):
                try db.resetPINAttempts(of: account, operatorPIN: pin, byOperatorAt: operatorSession, at: now)
                return nil
            case .disconnect(let identity, let account, _, _):
                let disconnect = Disconnect(database: db, providers: environment.providers, bus: nil)
                return try disconnect.forget(identity.identity, of: account, byOperatorAt: operatorSession, operatorPIN: pin, at: now)
            }
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let forgotten):
                let aside = forgotten?.accountRemoved == true
                    ? "The account had no other identity and is gone; every session acting as it is signed out." : nil
                self.send(.acted(action, .done(aside: aside)))
                if let forgotten { self.revoke(forgotten) }
            case .failure(let error):
                self.send(.acted(action, .refused(Self.sentence(error.description), pinRefused: Self.refusesOperatorPIN(error))))
            }
            // This process's own write wakes no watch of its own on every engine: read now.
            self.readFleet()
        }
    }

    /// Asks the provider to revoke what a disconnect forgot, and says how it went.
    private func revoke(_ forgotten: DisconnectResult) {
        let disconnect = Disconnect(database: environment.database, providers: environment.providers, bus: nil)
        Task { [weak self] in
            let revocation = await disconnect.revoke(forgotten)
            guard let said = revocation.sentence(provider: forgotten.identity.provider) else { return }
            let failed = if case .failed = revocation { true } else { false }
            self?.send(.notice(said, isError: failed))
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

/// A number of seconds read and written from any thread (the board's fleet clock offset).
final class SharedOffset: Sendable {
    private let value = Mutex<Double>(0)
    var seconds: Double { value.withLock { $0 } }
    func set(_ seconds: Double) { value.withLock { $0 = seconds } }
}
