import SwitchboardCore
import ScreenKit
import TerminalUI

/// What reaches the board: the terminal, the clock, the store.
public enum BoardAction: Sendable {
    /// A key, a mouse event or a resize.
    case input(InputEvent)
    /// The clock, once a second: idle times, countdowns and offline rows move on.
    case tick(Moment)
    /// The fleet as read after a change anywhere in it.
    case loaded([BoardStation])
    /// A station's recent events (`key` is `station/terminal`).
    case eventsLoaded([BoardEvent], of: String)
    /// The store's server went away (what went wrong) or came back (nil).
    case storeOffline(String?)
    /// A store call has been out a while (true), or none is any more.
    case storeWaiting(Bool)
    /// The operator PIN was checked for `then`: the store's verdict, and,
    /// when it could not check it, why (as the store said it).
    case pinChecked(digits: String, then: OperatorAction, check: PINCheck, problem: String?)
    /// The identities of `name`'s `account`, read for a disconnect at `station` (`station/terminal`).
    case identitiesLoaded([LinkedIdentity], of: AccountID, name: String, station: String)
    /// An operator action was done or refused.
    case acted(OperatorAction, ActionOutcome)
    case themeChanged(Theme)
    /// Something for the operator to read in the top bar (a read that failed, a theme file's problem).
    case notice(String, isError: Bool)
    case terminate
}

/// What the board's loop does for the reducer.
public enum BoardEffect: Hashable, Sendable {
    /// Reads a station's recent events.
    case loadEvents(station: String, terminal: String, session: String)
    /// Reads an account's identities, to choose the one to disconnect.
    case loadIdentities(AccountID, name: String, station: String)
    /// Checks the operator PIN before `then`.
    case checkOperatorPIN(String, then: OperatorAction)
    /// Does `action`, as the operator whose PIN this is.
    case perform(OperatorAction, operatorPIN: String)
    case nextTheme
    case quit
}

extension BoardState {
    /// The one place the board's state changes; pure, the time comes with the actions.
    public mutating func reduce(_ action: BoardAction) -> [BoardEffect] {
        var effects = apply(action)
        // The detail pane follows the selection, and is read again after every change.
        if let station = selectedStation, eventsOf != station.key || isStoreChange(action) {
            if eventsOf != station.key { events = []; eventsOf = station.key }
            effects.append(.loadEvents(station: station.station, terminal: station.terminal, session: station.session))
        }
        return effects
    }

    /// `reduce` for an action that came at `now`, as the board's loop sends every one.
    public mutating func reduce(_ action: BoardAction, at now: Moment) -> [BoardEffect] {
        self.now = now
        return reduce(action)
    }

    /// The board ticks on each second: idle times and countdowns move on with no read.
    public var needsTicks: Bool { true }
    /// The tick meets every deadline the board has (a notice, an operator PIN's time).
    public var nextDeadline: Moment? { nil }

    private func isStoreChange(_ action: BoardAction) -> Bool {
        if case .loaded = action { return true }
        return false
    }

    private mutating func apply(_ action: BoardAction) -> [BoardEffect] {
        switch action {
        case .input(.resize(let size)):
            self.size = size
            clamp()
            return []
        case .input(.key(let key)):
            // A key keeps the operator PIN for another idle timeout.
            if isUnlocked, let pin = operatorPIN { operatorPIN = (pin.digits, now.advanced(by: idleLimit.timeout)) }
            return handle(key)
        case .input(.mouse(let mouse)):
            handle(mouse)
            return []
        case .tick(let moment):
            now = moment
            if let pin = operatorPIN, pin.until <= now { operatorPIN = nil }
            if let message, message.until <= now { self.message = nil }
            // A filter on a state, or an order by idle time or state, follows the clock.
            if !filter.isEmpty || order != .station { refilter() }
            return []
        case .loaded(let rows):
            setStations(rows)
            return []
        case .eventsLoaded(let events, let key):
            if key == selectedKey { setEvents(events, of: key) }
            return []
        case .storeOffline(let detail):
            storeOffline = detail
            return []
        case .storeWaiting(let waiting):
            storeWaiting = waiting
            return []
        case .pinChecked(let digits, let then, let check, let problem):
            guard case .pin(var field, let asked) = dialog, asked == then, field.checking else { return [] }
            switch check {
            case .accepted:
                operatorPIN = (digits, now.advanced(by: idleLimit.timeout))
                dialog = .confirm(then)
            case .failed:
                field.refused(problem ?? "The operator PIN could not be checked.")
                dialog = .pin(field, then: then)
            case .wrong, .locked:
                field.checked(check)
                dialog = .pin(field, then: then)
            }
            return []
        case .identitiesLoaded(let identities, let account, let name, let key):
            // The selection may have moved on while they were read.
            guard dialog == nil, key == selectedKey else { return [] }
            switch identities.count {
            case 0: say("\(name) has no identity left to disconnect.", isError: true)
            case 1: ask(.disconnect(identities[0], of: account, name: name, isLast: true))
            default: dialog = .chooseIdentity(account: account, name: name, identities: identities, selection: 0)
            }
            return []
        case .acted(let action, .done(let aside)):
            say(Self.done(action) + (aside.map { " " + $0 } ?? ""), isError: false)
            return []
        case .acted(_, .refused(let problem, let pinRefused)):
            say(problem, isError: true)
            // A refused PIN is forgotten: it is asked again next time.
            if pinRefused { operatorPIN = nil }
            return []
        case .themeChanged(let theme):
            self.theme = theme
            return []
        case .notice(let text, let isError):
            say(text, isError: isError)
            return []
        case .terminate:
            isRunning = false
            return [.quit]
        }
    }

    /// What the board says once an action is done.
    static func done(_ action: OperatorAction) -> String {
        switch action {
        case .signOut(let session, let who): "Signed \(who) out of \(session)."
        case .resetPIN(_, let name): "\(name)'s wrong PINs are cleared."
        case .disconnect(let identity, _, let name, _): "\(name)'s \(identity.provider.rawValue) identity is disconnected everywhere."
        }
    }

    /// Shows `text` in the top bar for a few seconds.
    public mutating func say(_ text: String, isError: Bool) {
        message = (text.displaySafe, isError, now.advanced(by: 6))
    }

    private mutating func handle(_ key: Key) -> [BoardEffect] {
        if let keys = dialogKeys {
            guard let command = keys.command(for: key) else { return [] }
            return dialogCommand(command, key: key)
        }
        guard let command = BoardBindings.main.command(for: key) else { return [] }
        if let why = unavailable(command) {
            say(why.reason, isError: true)
            return []
        }
        return mainCommand(command)
    }

    private mutating func mainCommand(_ command: BoardCommand) -> [BoardEffect] {
        let page = BoardLayout(size)?.rowsShown ?? 1
        switch command {
        case .up: move(to: selection - 1)
        case .down: move(to: selection + 1)
        case .pageUp: move(to: selection - page)
        case .pageDown: move(to: selection + page)
        case .top: move(to: 0)
        case .bottom: move(to: visible.count - 1)
        case .filter: isFiltering = true
        case .clearFilter:
            filter = ""
            refilter()
        case .sort:
            order = order.next
            refilter()
        case .help: dialog = .help(scroll: 0)
        case .theme: return [.nextTheme]
        case .quit:
            isRunning = false
            return [.quit]
        case .suspend: break  // the terminal suspends before the key reaches here
        case .signOut:
            if let station = selectedStation { ask(.signOut(session: station.session, who: station.who)) }
        case .resetPIN:
            if let account = lockedAccount { ask(.resetPIN(account.id, name: account.name)) }
        case .disconnect:
            // Which identity is chosen from the account's, read first.
            guard let station = selectedStation, let account = station.active else { return [] }
            return [.loadIdentities(account, name: station.who, station: station.key)]
        }
        return []
    }

    /// Asks for the operator PIN unless it is kept, then whether to do `action`.
    private mutating func ask(_ action: OperatorAction) {
        dialog = isUnlocked ? .confirm(action) : .pin(PINField(), then: action)
    }

    private mutating func dialogCommand(_ command: DialogCommand, key: Key) -> [BoardEffect] {
        switch dialog {
        case .help(let scroll):
            let shown = BoardHelp.rowsShown(in: self), most = max(0, BoardHelp.lines(self).count - shown)
            dialog = HelpScroll.scrolled(scroll, by: command, page: shown, most: most).map { .help(scroll: $0) }
            return []
        case .pin(var field, let then):
            switch field.handle(command, key: key, at: now) {
            case .edited: dialog = .pin(field, then: then)
            case .submit(let digits):
                guard storeOffline == nil else {
                    field.refused(Unavailable.offline.reason)
                    dialog = .pin(field, then: then)
                    return []
                }
                dialog = .pin(field, then: then)
                return [.checkOperatorPIN(digits, then: then)]
            case .close, .cancelCheck: dialog = nil
            case .none: break
            }
            return []
        case .chooseIdentity(let account, let name, let identities, let selection):
            switch command {
            case .up: dialog = .chooseIdentity(account: account, name: name, identities: identities, selection: max(0, selection - 1))
            case .down:
                dialog = .chooseIdentity(account: account, name: name, identities: identities, selection: min(identities.count - 1, selection + 1))
            case .confirm:
                dialog = nil
                if identities.indices.contains(selection) {
                    ask(.disconnect(identities[selection], of: account, name: name, isLast: identities.count == 1))
                }
            default: dialog = nil
            }
            return []
        case .confirm(let action):
            dialog = nil
            guard command == .confirm else { return [] }
            guard let pin = operatorPIN, isUnlocked else {
                dialog = .pin(PINField(), then: action)
                return []
            }
            if storeOffline != nil {
                say(Unavailable.offline.reason, isError: true)
                return []
            }
            return [.perform(action, operatorPIN: pin.digits)]
        case nil:
            // The filter, typed into as the account list's is.
            switch FilterLine.edit(filter, by: command, key: key) {
            case .text(let text):
                filter = text
                refilter()
            case .stop(let clear):
                isFiltering = false
                if clear {
                    filter = ""
                    refilter()
                }
            case .move(let rows): move(to: selection + rows)
            case .none: break
            }
            return []
        }
    }

    private mutating func move(to row: Int) {
        selection = max(0, row)
        clamp()
    }

    private mutating func handle(_ mouse: MouseEvent) {
        guard dialog == nil, let layout = BoardLayout(size) else { return }
        switch mouse.kind {
        case .press:
            if layout.rows.contains(x: mouse.x, y: mouse.y) { move(to: scroll + mouse.y - layout.rows.y) }
        case .scrollUp: move(to: selection - 1)
        case .scrollDown: move(to: selection + 1)
        case .release: break
        }
    }
}
