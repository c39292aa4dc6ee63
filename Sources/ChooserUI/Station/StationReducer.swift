import ScreenKit
import StationConfig
import SwitchboardCore
import TerminalUI

/// The station's reducer: every action at a station comes here first; what
/// the chooser does with its own is the chooser's reducer, unchanged. Here:
/// the idle clock and its countdown, keys that count for nothing (the one
/// that ends a countdown, all of them while the hand-off command has the
/// terminal), the operator key, PIN and menu, the remembered person, nobody
/// left active from an unclean stop, a stop that signs out, and the
/// hand-off command.
extension Station {
    /// Applies `action`, which came at `now`: typed input counts as someone
    /// being there (the idle time starts again) before it acts.
    public mutating func reduce(_ action: StationAction, at now: Moment) -> [StationEffect] {
        chooser.now = now
        if case .chooser(.input) = action { activity(at: now) }
        return reduce(action)
    }

    /// Applies `action` at the chooser's present time.
    public mutating func reduce(_ action: StationAction) -> [StationEffect] {
        guard own != nil else {
            // Kiosk mode left: a plain chooser until the next start.
            guard case .chooser(let action) = action else { return [] }
            return apply(action)
        }
        var effects = stationEffects(action)
        // While another machine runs a station of this name, its session is that machine's: nothing here signs it out.
        if own?.nameTaken != nil { effects.removeAll { if case .chooser(.signOut) = $0 { true } else { false } } }
        surround()
        return effects
    }

    /// One of the chooser's actions, at the station.
    public mutating func reduce(_ action: Action) -> [StationEffect] { reduce(.chooser(action)) }

    /// One of the chooser's actions, at the station, come at `now`.
    public mutating func reduce(_ action: Action, at now: Moment) -> [StationEffect] { reduce(.chooser(action), at: now) }

    /// The chooser's reducer, its effects the station's.
    mutating func apply(_ action: Action) -> [StationEffect] {
        chooser.reduce(action).map(StationEffect.chooser)
    }

    private mutating func stationEffects(_ action: StationAction) -> [StationEffect] {
        switch action {
        case .chooser(let action):
            return chooserAction(action) + handOff(after: action)
        case .stationName(let taken):
            own?.nameTaken = taken
            own?.nameHeld = taken == nil
            return (taken == nil ? signOutLeftOver() : []) + handOff(after: nil)
        case .remembered(let id):
            remember(id)
            return handOff(after: nil)
        case .clockSkew(let skew):
            own?.clockSkew = skew
            return handOff(after: nil)
        case .powerCommandRan(let choice, let outcome):
            powerCommandRan(choice, outcome)
            return handOff(after: nil)
        case .operatorPINChecked(let check):
            operatorPINChecked(check)
            return handOff(after: nil)
        case .handOffEnded(let date, let notice):
            return handOffEnded(at: date, notice: notice) + handOff(after: nil)
        }
    }

    private mutating func chooserAction(_ action: Action) -> [StationEffect] {
        switch action {
        case .started:
            return apply(action) + (own?.settings.rememberLast == true ? [.loadRemembered] : [])
        case .input(let event):
            if !event.isResize { own?.startChecked = true }
            if own?.handOff.isRunning == true, !event.isResize {
                // The hand-off command is about to have the terminal, or has it: no key or click counts.
                return []
            }
            if !event.isResize, own?.swallowNextKey == true {
                // The key or click that ended a countdown does nothing else.
                own?.swallowNextKey = false
                return []
            }
            if stationDialog != nil, !event.isResize {
                // The station's dialog has the keys; a click behind it does nothing.
                guard case .key(let key) = event else { return [] }
                return stationDialogKey(key)
            }
            if case .key(let key) = event, key == own?.settings.operatorKey, chooser.dialog == nil {
                stationDialog = .operatorPIN(PINField())
                return []
            }
            return apply(action)
        case .tick(let date):
            return apply(action) + idleTick(date)
        case .terminate:
            // A station stopped leaves nobody signed in: signed out once, however often the stop is heard (a
            // closed terminal is heard twice: its SIGHUP, and its input hanging up).
            guard chooser.isRunning else { return apply(action) }
            return [.chooser(.signOut(.stopped))] + apply(action)
        case .loaded:
            var effects = apply(action)
            listRead()
            own?.listLoaded = true
            effects += signOutLeftOver()
            return effects
        case .indexRead, .rowsRead:
            // The remembered person's place in the list may be known now.
            let effects = apply(action)
            listRead()
            return effects
        case .storeOffline(let detail):
            var effects = apply(action)
            // Back: the sign-out the station owes is written first.
            if detail == nil, let owed = own?.signOutOwed { effects.insert(.chooser(.signOut(owed)), at: 0) }
            return effects
        case .statusChanged(let change):
            let effects = apply(action)
            if change.session == chooser.session, change.current == .anonymous { own?.signOutOwed = nil }
            if change.session == chooser.session {
                // Chosen here or elsewhere after the start: no one left over to sign out; and the one to remember.
                own?.startChecked = true
                listRead()
            }
            return effects
        default:
            return apply(action)
        }
    }

    /// Whoever is active once the first list is in and this machine holds
    /// the station's name is left from a stop that could not sign out, and
    /// is signed out; a key pressed before that means someone is here.
    private mutating func signOutLeftOver() -> [StationEffect] {
        guard var own, !own.startChecked, own.listLoaded, own.nameHeld else { return [] }
        own.startChecked = true
        self.own = own
        return chooser.active == .anonymous ? [] : [.chooser(.signOut(.leftOver))]
    }

    // MARK: The idle clock

    /// Input arrived at `date`: the idle time starts again, and an input
    /// that ends a countdown does nothing else.
    mutating func activity(at date: Moment) {
        guard var own else { return }
        if isAway && own.idle.isWarning(at: date) { own.swallowNextKey = true }
        own.idle.activity(at: date)
        self.own = own
    }

    /// The clock moved to `date`: past the countdown, the station goes back
    /// to its first screen and this session to Anonymous.
    private mutating func idleTick(_ date: Moment) -> [StationEffect] {
        guard var own, isAway, own.idle.hasRunOut(at: date) else { return [] }
        own.idle.activity(at: date)
        own.swallowNextKey = false
        self.own = own
        return returnToFirstScreen(signingOut: .idle)
    }

    /// Seconds left before this session signs out, while the countdown shows.
    public var secondsLeft: Int? {
        guard let own, isAway else { return nil }
        return own.idle.secondsLeft(at: chooser.now)
    }

    /// Whether the station is away from its first screen: someone active, a
    /// dialog, a filter, or a selection moved. Only then does idleness count
    /// — and not while the hand-off command has the terminal, which counts
    /// its own idleness.
    var isAway: Bool {
        guard own?.handOff.isRunning != true else { return false }
        let chooser = chooser
        return chooser.active != .anonymous || chooser.dialog != nil || stationDialog != nil || !chooser.accounts.filter.isEmpty
            || chooser.accounts.isFiltering || chooser.accounts.selection != homeSelection || chooser.focus != .accounts
            || chooser.guide.selection != 0
    }

    /// The next moment the station must look at the clock: the countdown's
    /// start, or its end; else the top bar's clock's next minute, if any.
    var nextStationDeadline: Moment? {
        let now = chooser.now
        let nextMinute = own?.clock?.nextMinute(after: now)
        guard let own, isAway else { return nextMinute }
        return [own.idle.nextChange(after: now), nextMinute].compactMap { $0 }.min()
    }

    /// The station's first screen again, with this session Anonymous.
    mutating func returnToFirstScreen(signingOut reason: SignOutReason) -> [StationEffect] {
        var effects: [StationEffect] = []
        if case .signIn = chooser.dialog { effects.append(.chooser(.cancelSignIn)) }
        chooser.dialog = nil
        stationDialog = nil
        chooser.accounts.isFiltering = false
        chooser.setFilter("")
        chooser.focus = .accounts
        chooser.guide.selection = 0
        chooser.guide.scroll = 0
        chooser.accounts.selection = homeSelection
        if chooser.active != .anonymous {
            effects.append(.chooser(.signOut(reason)))
            own?.signOutOwed = reason
            // The store cannot say it now: nothing of the person stays shown meanwhile.
            if chooser.storeOffline != nil { effects += chooser.becomeActive(.anonymous).map(StationEffect.chooser) }
        }
        chooser.clampAll()
        return effects
    }

    // MARK: The remembered person

    /// Where a resting station's selection is: the remembered person's row,
    /// else the first.
    var homeSelection: Int {
        guard let id = own?.remembered, chooser.accounts.filter.isEmpty, let index = chooser.accounts.itemIndex(of: id) else { return 0 }
        return index
    }

    /// The store says who this session last acted as (`remember_last`):
    /// the list rests on them, as soon as it holds them.
    private mutating func remember(_ id: AccountID?) {
        guard var own, own.settings.rememberLast else { return }
        own.remembered = id
        own.preselectPending = id != nil
        self.own = own
        listRead()
    }

    /// The accounts were read again: the person now active is the one to
    /// remember; a pending preselection happens once the list holds them.
    private mutating func listRead() {
        guard var own, own.settings.rememberLast else { return }
        if let id = chooser.active.id { own.remembered = id }
        self.own = own
        guard own.preselectPending, chooser.dialog == nil, stationDialog == nil, chooser.accounts.filter.isEmpty,
            let id = own.remembered, chooser.accounts.itemIndex(of: id) != nil
        else { return }
        self.own?.preselectPending = false
        chooser.accounts.selection = homeSelection
        chooser.clampAll()
    }

    // MARK: The hand-off command

    /// After every action at a station with a hand-off command: a person
    /// chosen here (switched to, or signed in) gets the command once no
    /// dialog shows. Who another program made active does not, nor does
    /// the account an identity was linked or merged into.
    private mutating func handOff(after action: Action?) -> [StationEffect] {
        guard var own, own.settings.command != nil else { return [] }
        if case .statusChanged(let change) = action, change.session == chooser.session, let id = change.current.id, own.handOff == .none {
            switch change.reason {
            case .switched, .signedIn: own.handOff = .due(id)
            default: break
            }
        }
        var effects: [StationEffect] = []
        switch own.handOff {
        case .due(let id) where chooser.active.id != id:
            own.handOff = .none
        case .due(let id) where chooser.dialog == nil && stationDialog == nil && chooser.isRunning:
            own.handOff = .running(id)
            effects.append(.handOff(id))
        case .running(let id) where chooser.active.id != id:
            // Signed out or switched from elsewhere meanwhile: the command is not theirs to go on with.
            own.handOff = .ending(id)
            effects.append(.endHandOff)
        case .ended where chooser.active == .anonymous:
            own.handOff = .none
        default:
            break
        }
        self.own = own
        return effects
    }

    /// The hand-off command ended: the station goes back to its first
    /// screen and this session to Anonymous; the idle time starts again.
    private mutating func handOffEnded(at date: Moment, notice: (text: String, kind: Toast.Kind)?) -> [StationEffect] {
        guard chooser.isRunning, var own, let id = own.handOff.person, own.handOff.isRunning else { return [] }
        own.handOff = .ended(id)
        own.idle.activity(at: date)
        own.swallowNextKey = false
        chooser.now = date
        self.own = own
        if let notice { chooser.notify(notice.text, notice.kind) }
        return returnToFirstScreen(signingOut: .handOffEnded)
    }
}

extension InputEvent {
    /// Whether this is a change of the terminal's size.
    var isResize: Bool { if case .resize = self { true } else { false } }
}
