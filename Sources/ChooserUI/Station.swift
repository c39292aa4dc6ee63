import ScreenKit
import SwitchboardCore
import TerminalUI

/// The station layer: a station's rules around the chooser's reducer. Every
/// action at a station comes here first (`AppState.reduce`); what the
/// chooser does with it is `apply`, unchanged. Here: the idle clock and its
/// countdown, keys that count for nothing (the one that ends a countdown,
/// all of them while the hand-off command has the terminal), the operator
/// key and menu, the remembered person, nobody left active from an unclean
/// stop, a stop that signs out, and the hand-off command (`KioskHandOff.swift`).
extension AppState {
    mutating func reduceAtStation(_ action: Action) -> [Effect] {
        var effects = stationEffects(action)
        // While another machine runs a station of this name, its session is that machine's: nothing here signs it out.
        if kiosk?.nameTaken != nil { effects.removeAll { if case .signOut = $0 { true } else { false } } }
        return effects
    }

    /// Whoever is active once the first list is in and this machine holds
    /// the station's name is left from a stop that could not sign out, and
    /// is signed out; a key pressed before that means someone is here.
    private mutating func signOutLeftOver() -> [Effect] {
        guard var kiosk, !kiosk.startChecked, kiosk.listLoaded, kiosk.nameHeld else { return [] }
        kiosk.startChecked = true
        self.kiosk = kiosk
        return active == .anonymous ? [] : [.signOut(.leftOver)]
    }

    private mutating func stationEffects(_ action: Action) -> [Effect] {
        var effects: [Effect]
        switch action {
        case .started:
            effects = kiosk?.settings.rememberLast == true ? [.loadRemembered] : []
        case .input(let event):
            if !event.isResize { kiosk?.startChecked = true }
            if kiosk?.handOff.isRunning == true, !event.isResize {
                // The hand-off command is about to have the terminal, or has it: no key or click counts.
                effects = []
            } else if !event.isResize, kiosk?.swallowNextKey == true {
                // The key or click that ended a countdown does nothing else.
                kiosk?.swallowNextKey = false
                effects = []
            } else if case .key(let key) = event, let used = kioskKey(key) {
                effects = used
            } else {
                effects = apply(action)
            }
        case .tick(let date):
            effects = apply(action) + kioskTick(date)
        case .terminate:
            // A station stopped leaves nobody signed in.
            effects = [.signOut(.stopped)] + apply(action)
        case .handOffEnded(let date, let notice):
            effects = handOffEnded(at: date, notice: notice)
        case .loaded:
            effects = apply(action)
            kioskLoaded()
            kiosk?.listLoaded = true
            effects += signOutLeftOver()
        case .stationName(let taken):
            kiosk?.nameTaken = taken
            kiosk?.nameHeld = taken == nil
            effects = taken == nil ? signOutLeftOver() : []
        case .indexRead, .rowsRead:
            // The remembered person's place in the list may be known now.
            effects = apply(action)
            kioskLoaded()
        case .storeOffline(let detail):
            effects = apply(action)
            // Back: the sign-out the station owes is written first.
            if detail == nil, let owed = kiosk?.signOutOwed { effects.insert(.signOut(owed), at: 0) }
        case .statusChanged(let change):
            effects = apply(action)
            if change.session == session, change.current == .anonymous { kiosk?.signOutOwed = nil }
            if change.session == session {
                // Chosen here or elsewhere after the start: no one left over to sign out; and the one to remember.
                kiosk?.startChecked = true
                kioskLoaded()
            }
        case .remembered(let id):
            remember(id)
            effects = []
        case .powerCommandRan(let choice, let outcome):
            powerCommandRan(choice, outcome)
            effects = []
        case .operatorPINChecked(let check):
            operatorPINChecked(check)
            effects = []
        default:
            effects = apply(action)
        }
        return effects + kioskHandOff(after: action)
    }

    /// The store's answer to the operator PIN: the operator menu, or the
    /// dialog again with what the try found.
    private mutating func operatorPINChecked(_ check: PINCheck) {
        guard case .pin(var pin) = dialog, case .operatorMenu = pin.purpose else { return }
        pinChecked(&pin, check)
        if check == .accepted { dialog = .operatorMenu(selection: 0) }
    }
}

extension InputEvent {
    /// Whether this is a change of the terminal's size.
    var isResize: Bool { if case .resize = self { true } else { false } }
}
