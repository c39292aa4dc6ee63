import ScreenKit
import StationConfig
import SwitchboardCore
import TerminalUI

/// The chooser at a station people walk up to (`switchboard kiosk`): the
/// chooser's state inside, with the station's own state, actions, effects
/// and dialogs around it. Its reducer (`StationReducer.swift`) comes first
/// for every action and calls the chooser's for the chooser's part; its
/// screen (`StationScreen.swift`) draws over the chooser's.
///
/// Reads of the chooser's state pass through (`station.active`,
/// `station.dialog`), so a station reads as the chooser it holds.
@dynamicMemberLookup
public struct Station: Sendable {
    /// The chooser inside.
    public internal(set) var chooser: AppState
    /// The station's own state; nil once the operator left kiosk mode (the
    /// chooser is then a plain one until the next start).
    public internal(set) var own: StationState?
    /// The station's own dialog over the chooser, if one is open.
    public internal(set) var stationDialog: StationDialog?

    /// Runs `chooser` as a station: locked keys, idle return to Anonymous,
    /// and only `settings.providers` offered; `clock` shows local time in
    /// the top bar.
    ///
    /// `holdsName` false: the station reports itself to a fleet, and acts
    /// on its session only once the store says this machine holds its name
    /// (`.stationName(taken:)`).
    public init(_ chooser: AppState, settings: StationSettings, clock: LocalClock? = nil, holdsName: Bool = true) {
        self.chooser = chooser
        var own = StationState(settings: settings, now: chooser.now)
        own.clock = clock
        own.nameHeld = holdsName
        self.own = own
        self.chooser.accounts.byName = true
        if let allowed = settings.providers { self.chooser.providers = chooser.providers.filter { allowed.contains($0.id) } }
        surround()
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<AppState, T>) -> T { chooser[keyPath: keyPath] }
}

/// A station's own dialogs, over the chooser's screen.
public enum StationDialog: Hashable, Sendable {
    /// The operator PIN, before the operator menu.
    case operatorPIN(PINField)
    /// The operator menu: `selection` indexes `Station.operatorChoices`.
    case operatorMenu(selection: Int)
    /// The operator chose to reboot or power off the station: asks first.
    case confirmPower(OperatorChoice)
}

/// What happens to a station beyond the chooser's own actions.
public enum StationAction: Sendable {
    /// One of the chooser's.
    case chooser(Action)
    /// The store's answer to the operator PIN.
    case operatorPINChecked(PINCheck)
    /// The hand-off command ended at this time; `notice` says how, when the
    /// next person should know.
    case handOffEnded(Moment, notice: (text: String, kind: Toast.Kind)?)
    /// Who this station's session last acted as, from the store (`remember_last`).
    case remembered(AccountID?)
    /// A reboot or power-off command ended.
    case powerCommandRan(OperatorChoice, CommandOutcome)
    /// Whether this station holds its name in the fleet: nil once it does,
    /// else what to say while another machine runs a station of its name.
    case stationName(taken: String?)
    /// How many seconds this machine's clock is off the fleet's (the
    /// server's), when past the tolerance; nil when it is close enough.
    case clockSkew(Double?)
}

/// Work a station asks of the loop beyond the chooser's.
public enum StationEffect: Hashable, Sendable {
    /// One of the chooser's.
    case chooser(Effect)
    /// Read who this session last acted as (`remember_last`); `.remembered` follows.
    case loadRemembered
    /// Check the operator PIN (off the UI loop); `.operatorPINChecked` follows.
    case checkOperatorPIN(String)
    /// Run the hand-off command as this account, the terminal given to it;
    /// `.handOffEnded` follows.
    case handOff(AccountID)
    /// End the hand-off command now (its person is no longer active); `.handOffEnded` follows.
    case endHandOff
    /// Run a reboot or power-off command (no shell); `.powerCommandRan` follows.
    case power(OperatorChoice, command: [String])
}

/// What a station's operator can do, in the operator menu.
public enum OperatorChoice: String, CaseIterable, Sendable {
    case leaveKiosk = "Leave kiosk mode (then q quits)"
    case signOut = "Sign this station's session out"
    case disconnect = "Disconnect an identity of the selected account"
    /// Only when `[kiosk] power` has a `reboot` command.
    case reboot = "Reboot the station"
    /// Only when `[kiosk] power` has a `poweroff` command.
    case powerOff = "Power off the station"
    case back = "Back to the station"
}

/// How a station command (reboot, power off) went.
public enum CommandOutcome: Hashable, Sendable {
    /// It ran and exited with status 0.
    case succeeded
    /// It could not start, exited with a failure status or was killed; why, for a toast.
    case failed(String)
}

extension Station: ChooserLayer {
    public typealias LayerAction = StationAction
    public typealias LayerEffect = StationEffect
    public static func chooser(_ action: Action) -> StationAction { .chooser(action) }

    public static func chooserEffect(_ effect: StationEffect) -> Effect? {
        if case .chooser(let effect) = effect { effect } else { nil }
    }

    public var isRunning: Bool { chooser.isRunning }

    /// Ticks while the chooser wants them, the idle countdown shows, or the operator PIN waits out a lockout.
    public var needsTicks: Bool {
        if case .operatorPIN(let field) = stationDialog, field.isLocked(at: chooser.now) { return true }
        return chooser.needsTicks || secondsLeft != nil
    }

    /// The chooser's next deadline, or the station's (the countdown's start or end, the clock's next minute).
    public var nextDeadline: Moment? { [chooser.nextDeadline, nextStationDeadline].compactMap { $0 }.min() }
}
