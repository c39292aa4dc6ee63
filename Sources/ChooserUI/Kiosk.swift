import ScreenKit
import StationSettings
import SwitchboardCore
import TerminalUI

/// The chooser's kiosk mode: its settings and the time of the last input.
public struct KioskState: Sendable {
    public let settings: KioskSettings
    /// When the station last had input.
    public var lastActivity: Moment
    /// The input that ended a countdown is used up by that.
    var swallowNextKey = false
    /// Where the hand-off command is for the person chosen here.
    public internal(set) var handOff: HandOffPhase = .none
    /// The top bar's clock in local time; nil shows none.
    public var clock: LocalClock?
    /// The last person active in this session (`remember_last`): the list rests on them.
    public var remembered: AccountID?
    /// The list has not yet been read since `remembered` was set.
    var preselectPending = false
    /// Set once the first list is loaded: whoever was active then is left
    /// from a stop that could not sign out, and is signed out.
    var startChecked = false
    /// The first list has been loaded.
    var listLoaded = false
    /// Whether this machine holds the station's name in the fleet. A
    /// station that reports itself starts without it and acts on its
    /// session only once the store said it does (`enterKiosk(_:clock:holdsName:)`).
    public internal(set) var nameHeld = true
    /// While another machine runs a station of this name: what to say.
    /// Nothing of the session is changed meanwhile.
    public internal(set) var nameTaken: String?
    /// A sign-out of this session is owed to the store: asked for while it
    /// could not be reached (an idle return during an outage), it is asked
    /// for again, for the same reason, when the store is back, until the
    /// store says it is done.
    var signOutOwed: SignOutReason?

    public init(settings: KioskSettings, now: Moment) {
        self.settings = settings
        lastActivity = now
    }

    /// When the countdown starts.
    public var countdownStart: Moment { lastActivity.advanced(by: settings.idleTimeout) }
    /// When the session signs out.
    public var signOutAt: Moment { countdownStart.advanced(by: settings.countdown) }
}

extension AppState {
    /// Carries out the operator's choice in the operator menu.
    mutating func operatorCommand(_ command: DialogCommand, selection: Int) -> [Effect] {
        let choices = operatorChoices
        switch command {
        case .up: dialog = .operatorMenu(selection: max(0, selection - 1))
        case .down: dialog = .operatorMenu(selection: min(choices.count - 1, selection + 1))
        case .cancel: dialog = nil
        case .confirm:
            dialog = nil
            switch choices[min(selection, choices.count - 1)] {
            case .leaveKiosk:
                kiosk = nil
                accounts.byName = false
                notify("Kiosk mode is off until the next start: every key but Ctrl-Z works again.", .warning)
                // The list by use comes from the store.
                return [.reload]
            case .signOut:
                guard active != .anonymous else { return signOut() }
                return [.signOut(.operatorMenu)]
            case .disconnect:
                guard let account = accounts.account(at: accounts.selection), !account.identities.isEmpty else {
                    notify("Select an account first.", .info)
                    return []
                }
                dialog = .disconnect(DisconnectDialog(account: account, byOperator: true))
            case .reboot, .powerOff:
                dialog = .confirmPower(choices[min(selection, choices.count - 1)])
            case .back:
                break
            }
        default: break
        }
        return []
    }

    /// Runs the chooser as a station: locked keys, idle return to Anonymous,
    /// and only `settings.providers` offered; `clock` shows local time in
    /// the top bar.
    ///
    /// `holdsName` false: the station reports itself to a fleet, and acts
    /// on its session only once the store says this machine holds its name
    /// (`.stationName(taken:)`).
    public mutating func enterKiosk(_ settings: KioskSettings, clock: LocalClock? = nil, holdsName: Bool = true) {
        kiosk = KioskState(settings: settings, now: now)
        kiosk?.clock = clock
        kiosk?.nameHeld = holdsName
        accounts.byName = true
        if let allowed = settings.providers { providers = providers.filter { allowed.contains($0.id) } }
    }

    /// What a station refuses to do at all, whoever asks: quitting,
    /// suspending, the theme, disconnecting, and opening a browser.
    func stationRefuses(_ command: Command) -> Bool {
        kiosk != nil && [.quit, .suspend, .theme, .disconnect].contains(command)
    }

    /// As `stationRefuses(_:)`, for a dialog's command.
    func stationRefuses(_ command: DialogCommand) -> Bool { kiosk != nil && command == .open }

    /// Seconds left before this session signs out, while the countdown shows.
    public var kioskSecondsLeft: Int? {
        guard let kiosk, kioskIsAway, now >= kiosk.countdownStart else { return nil }
        return max(0, Int(now.distance(to: kiosk.signOutAt).rounded(.up)))
    }

    /// Whether a station is away from its first screen: someone active, a
    /// dialog, a filter, or a selection moved. Only then does idleness count
    /// — and not while the hand-off command has the terminal, which counts
    /// its own idleness.
    var kioskIsAway: Bool {
        guard kiosk?.handOff.isRunning != true else { return false }
        return active != .anonymous || dialog != nil || !accounts.filter.isEmpty || accounts.isFiltering
            || accounts.selection != kioskHomeSelection || focus != .accounts || guide.selection != 0
    }

    /// The next moment the station must look at the clock: the countdown's
    /// start, or its end; else the top bar's clock's next minute, if any.
    var nextKioskDeadline: Moment? {
        guard let kiosk, kioskIsAway else { return nextClockMinute }
        return [now < kiosk.countdownStart ? kiosk.countdownStart : kiosk.signOutAt, nextClockMinute].compactMap { $0 }.min()
    }

    /// Input arrived at `date`: the idle time starts again, and an input
    /// that ends a countdown does nothing else.
    mutating func kioskActivity(at date: Moment) {
        guard var kiosk else { return }
        if kioskIsAway && date >= kiosk.countdownStart { kiosk.swallowNextKey = true }
        kiosk.lastActivity = date
        now = date
        self.kiosk = kiosk
    }

    /// The operator key, before any table: nil to go on, or the effects
    /// when the key is used up here.
    mutating func kioskKey(_ key: Key) -> [Effect]? {
        guard let kiosk else { return nil }
        if key == kiosk.settings.operatorKey, dialog == nil {
            dialog = .pin(PINDialog(.operatorMenu))
            return []
        }
        return nil
    }

    /// The clock moved to `date`: past the countdown, the station goes back
    /// to its first screen and this session to Anonymous.
    mutating func kioskTick(_ date: Moment) -> [Effect] {
        guard var kiosk, kioskIsAway, date >= kiosk.signOutAt else { return [] }
        kiosk.lastActivity = date
        kiosk.swallowNextKey = false
        self.kiosk = kiosk
        return returnToFirstScreen(signingOut: .idle)
    }

    /// The station's first screen again, with this session Anonymous.
    mutating func returnToFirstScreen(signingOut reason: SignOutReason) -> [Effect] {
        var effects: [Effect] = []
        if case .signIn = dialog { effects.append(.cancelSignIn) }
        dialog = nil
        accounts.isFiltering = false
        setFilter("")
        focus = .accounts
        guide.selection = 0
        guide.scroll = 0
        accounts.selection = kioskHomeSelection
        if active != .anonymous {
            effects.append(.signOut(reason))
            kiosk?.signOutOwed = reason
            // The store cannot say it now: nothing of the person stays shown meanwhile.
            if storeOffline != nil { effects += becomeActive(.anonymous) }
        }
        clampAll()
        return effects
    }
}
