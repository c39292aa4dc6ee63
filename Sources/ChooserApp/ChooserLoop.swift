import ScreenKit
import ChooserUI
import Services
import DeviceFlow
import Foundation
import Store
import SwitchboardCore
import TerminalUI

/// The chooser's loop (a station's and the tour's too): the chooser's
/// effects, carried out for the shell (`ProgramShell`) that owns `AppState`,
/// its frames and timers. Nothing wakes it when idle but a key, a resize, a
/// bus event, a tick while a countdown shows, or a station's clock turning
/// to the next minute. The store is called only through `link`
/// (`StoreLink`): off the main actor, in order, with a deadline.
@MainActor
public final class ChooserLoop<Program: ChooserProgram> {
    /// The loop every full-screen program runs: state, frames, timers, the store's line.
    let shell: ProgramShell<Program>
    /// The whole program's state: the chooser's, in a station's or the tour's if it runs as one.
    public var program: Program { shell.state }
    /// The chooser's state.
    public var state: AppState { shell.state.chooser }
    /// Its store changes only on tour, for each round (`TourDriver.freshStore`).
    var environment: ChooserEnvironment
    private var subscriptions: [Subscription] = []
    /// The PIN check out now, which Esc takes back.
    var pendingPINCheck: PendingPINCheck?
    /// The loop's line to the store.
    var link: StoreLink { shell.link }
    var reloadScheduled = false
    var signIn: (generation: Int, run: SignInRun?, task: Task<Void, Never>)?
    var generation = 0
    var pendingConflict: PendingConflict?
    /// A station's hand-off command, while it runs.
    var handOff: Task<Void, Never>?
    var roster = RosterReads()

    /// - Parameter render: draws the program's state; called at most once
    ///   per turn of the main actor, however many actions arrived.
    public init(program: Program, environment: ChooserEnvironment, render: @escaping @MainActor (Program) -> Void) {
        self.environment = environment
        shell = ProgramShell(state: program, now: environment.now, deadline: environment.storeDeadline, render: render)
        shell.database = { [weak self] in self?.environment.database }
        shell.perform = { [weak self] in self?.perform($0) }
        // A reload asked for this turn is a call about to go out: frames and keys wait for it too.
        shell.alsoHolds = { [weak self] in
            guard let self, self.reloadScheduled else { return nil }
            return .now + self.link.standardHold
        }
        shell.link.standardHold = environment.frameHold
        shell.endOfTurn = { [weak self] in
            self?.readWantedRows()
            self?.readWantedDetail()
        }
        shell.storeReturned = { [weak self] in self?.environment.storeReturned() }
    }

    /// Subscribes the panes, loads the store and draws the first frame.
    public func start() {
        subscriptions = PaneSubscriptions.subscribe(bus: environment.bus) { [weak self] action in
                self?.send(action)
            }
        reduce(.started)
        // The first frame waits for the first page, or for the store to count as offline.
        loadFirstPage(holdsFrame: .untilAnswered) { [weak self] in
            // Once the list is read, in the background: the index, and the active person's credentials.
            self?.refreshIndex()
            self?.checkActiveCredentials()
        }
        shell.endTurn()
    }

    /// Re-checks the active person's credentials in the background; a
    /// revocation arrives on the bus like any other change.
    private func checkActiveCredentials() {
        guard let account = state.active.id else { return }
        let check = CredentialCheck(database: environment.database, providers: environment.providers, bus: environment.bus, clock: environment.clock)
        Task { [weak self] in
            do { _ = try await check.run(only: account) } catch { self?.fail(error) }
        }
    }

    /// Waits until the person quits, for a hand-off command that was
    /// running then to be gone, and for the store calls made by then to
    /// have run (a station's sign-out at a stop is written before the
    /// program ends).
    public func run() async {
        start()
        await shell.waitUntilStopped()
        await handOff?.value
        await link.settle()
    }

    /// Handles one of the chooser's actions: reduce, run effects, schedule
    /// a frame. Input typed while an answer is on its way waits for it a
    /// moment (`Typeahead`).
    public func send(_ action: Action) {
        // The change feed's word on the server: the link follows it.
        if case .storeOffline(let detail) = action { link.heard(offline: detail) }
        shell.send(Program.chooser(action))
    }

    /// Handles one of the program's own actions (a station's, the tour's).
    public func send(layer action: Program.LayerAction) {
        shell.send(action)
    }

    /// After the actions of a turn: the rows a frame lacks asked for, the timers set, a frame asked for.
    func endTurn() {
        shell.endTurn()
    }

    /// Reduces `action` and carries out its effects: the only way the state changes.
    func reduce(_ action: Action) {
        shell.reduce(Program.chooser(action))
    }

    /// Reduces one of the program's own actions and carries out its effects.
    func reduce(layer action: Program.LayerAction) {
        shell.reduce(action)
    }

    /// Draws now if anything changed since the last frame.
    public func flush() {
        shell.flush()
    }

    // MARK: Effects

    /// Carries out an effect: the chooser's here, the program's own by the program.
    private func perform(_ effect: Program.LayerEffect) {
        if let effect = Program.chooserEffect(effect) { return performChooser(effect) }
        Program.perform(effect, in: self)
    }

    /// Carries out one of the chooser's effects.
    private func performChooser(_ effect: Effect) {
        let database = environment.database, session = state.session
        switch effect {
        case .reload:
            // Once per turn, however many changes asked for it.
            guard !reloadScheduled else { return }
            reloadScheduled = true
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.reloadScheduled = false
                self.reloadAccounts()
            }
        case .findSignedIn(let provider):
            findSignedIn(provider)
        case .switchAccount(let id):
            // This loop's own writes are reduced from the facts they return (one frame, when the store is quick).
            link.call(database, { db throws(StoreError) in try db.switchAccount(to: id, session: session) }) { [weak self] result in
                guard case .failure(.pinRequired) = result else { return self?.answer(result) { .statusChanged($0) } ?? () }
                // It was given a PIN since the list was read.
                self?.send(.pinNeeded(id))
                self?.send(.accountsChanged(AccountsChanged(accounts: [id])))
            }
        case .switchWithPIN(let id, let pin):
            switchWithPIN(id, pin: pin)
        case .signOut(let reason):
            link.call(database, { db throws(StoreError) in try db.signOut(session: session, reason: reason) }) { [weak self] in
                self?.answer($0) { .statusChanged($0) }
            }
        case .setFavourite(let show, let starred, let account):
            link.call(database, { db throws(StoreError) in try db.setFavourite(show, starred: starred, for: account) }) { [weak self] in
                self?.answer($0) { .favouriteSaved(show, starred: starred, account: account) }
            }
        case .loadFavourites(let account):
            link.call(database, { db throws(StoreError) in try db.favourites(of: account) }) { [weak self] in
                self?.answer($0) { .favouritesLoaded(account, $0) }
            }
        case .startSignIn(let provider, let mode):
            startSignIn(provider, mode: mode)
        case .cancelPINCheck:
            pendingPINCheck?.cancel()
        case .cancelSignIn:
            signIn?.run?.cancel()
            signIn?.task.cancel()
            signIn = nil
        case .resolveConflict(let choice):
            resolveConflict(choice)
        case .disconnect(let identity, let pin):
            disconnect(identity, pin: pin)
        case .copy(let text):
            environment.copy(text)
        case .open(let url):
            do { try environment.open(url) } catch {
                reduce(.notify(AppState.noBrowser(url: url, why: error.localizedDescription), .error))
            }
        case .nextTheme:
            let (theme, warning) = environment.nextTheme(state.theme.name)
            if let warning { reduce(.notify(warning, .warning)) }
            // In force at once, so that the next `t` moves on from it (t t t: three themes on).
            reduce(.themeChanged(theme))
            reduce(.notify(ThemeCycle.said(theme.name), .info))
        case .quit:
            handOff?.cancel()
            subscriptions.forEach { $0.cancel() }
            shell.stop()
        }
    }

    /// Checks the PIN through the link (the hash takes a moment), then
    /// reduces the switch's fact and tells the dialog.
    private func switchWithPIN(_ id: AccountID, pin: String) {
        let session = state.session
        let now = Date(timeIntervalSince1970: environment.now().secondsSince1970)
        let check = PendingPINCheck()
        pendingPINCheck = check
        link.call(environment.database, { db throws(StoreError) in
            try db.switchAccount(to: id, session: session, pin: .account(pin), at: now, unless: { check.isCancelled })
        }) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let change):
                self.send(.statusChanged(change))
                self.send(.pinChecked(id, .accepted))
            case .failure(.cancelled):
                break
            case .failure(let error):
                self.send(.pinChecked(id, self.pinCheck(error)))
            }
        }
    }

    /// What a PIN check's failure tells its dialog: wrong, locked out, or
    /// failed (said as the store's failure is said).
    func pinCheck(_ error: StoreError) -> PINCheck {
        if let refusal = PINCheck.refusal(error) { return refusal }
        fail(error)
        return .failed
    }

    /// Hands a call's answer to the reducer as the action `action` makes of
    /// it; a failure is said (or, offline, shown by the link's banner).
    func answer<T>(_ result: Result<T, StoreError>, _ action: (T) -> Action) {
        switch result {
        case .success(let value): send(action(value))
        case .failure(let error): fail(error)
        }
    }

    /// Says what failed; a store that cannot be reached is the link's to
    /// say (the offline banner), not a toast.
    func fail(_ error: any Error) {
        if case .offline(_, let detail) = error as? StoreError { return link.noticed(offline: detail) }
        send(.notify("The store failed: \(error)", .error))
    }

    /// Disconnects off the main actor (a PIN's hash takes a moment); with a
    /// PIN, the dialog that asked for it is told how it went.
    private func disconnect(_ identity: Identity, pin: PINProof?) {
        let environment = environment, session = state.session
        let owner = state.owner(of: identity)?.id
        let now = Date(timeIntervalSince1970: environment.now().secondsSince1970)
        Task { [weak self] in
            let disconnect = Disconnect(database: environment.database, providers: environment.providers, bus: environment.bus)
            do throws(StoreError) {
                let (result, revocation) = try await disconnect.run(identity, session: session, pin: pin, at: now)
                if let owner, pin != nil { self?.send(.pinChecked(owner, .accepted)) }
                let said = revocation.sentence(provider: identity.provider).map { " " + $0 } ?? ""
                let gone = result.accountRemoved ? " The account had no other identity and is gone." : ""
                self?.send(.notify("Disconnected \(identity.provider).\(said)\(gone)", .info))
            } catch {
                if let owner, let check = PINCheck.refusal(error) { return self?.send(.pinChecked(owner, check)) ?? () }
                if case .pinRequired = error {
                    // Given a PIN since the list was read.
                    self?.send(.notify("That account has a PIN now: press d again to give it.", .warning))
                    return self?.send(.accountsChanged(AccountsChanged(accounts: owner.map { [$0] } ?? []))) ?? ()
                }
                if let owner, pin != nil { self?.send(.pinChecked(owner, .failed)) }
                self?.fail(error)
            }
        }
    }
}

extension ChooserLoop where Program == AppState {
    /// The plain chooser's loop.
    public convenience init(state: AppState, environment: ChooserEnvironment, render: @escaping @MainActor (AppState) -> Void) {
        self.init(program: state, environment: environment, render: render)
    }
}
