import ScreenKit
import StationConfig
import SwitchboardCore

/// A station's own state: its settings, the time of the last input, the
/// hand-off command, the remembered person, its name in the fleet.
public struct StationState: Sendable {
    public let settings: StationSettings
    /// The idle rule: `idleTimeout` without input, then `countdown` seconds of warning.
    public internal(set) var idle: IdleClock
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
    /// session only once the store said it does (`Station.init(_:settings:clock:holdsName:)`).
    public internal(set) var nameHeld = true
    /// While another machine runs a station of this name: what to say.
    /// Nothing of the session is changed meanwhile.
    public internal(set) var nameTaken: String?
    /// Seconds this machine's clock is ahead of the fleet's (behind:
    /// negative), while past the tolerance: said in the top bar.
    public internal(set) var clockSkew: Double?
    /// A sign-out of this session is owed to the store: asked for while it
    /// could not be reached (an idle return during an outage), it is asked
    /// for again, for the same reason, when the store is back, until the
    /// store says it is done.
    var signOutOwed: SignOutReason?

    public init(settings: StationSettings, now: Moment) {
        self.settings = settings
        idle = IdleClock(since: now, timeout: settings.idleTimeout, warning: settings.countdown)
    }

    /// When the station last had input.
    public var lastActivity: Moment { idle.lastActivity }
}

/// Where a station's hand-off command stands for the person chosen there.
public enum HandOffPhase: Hashable, Sendable {
    /// Nobody was chosen here, or their command is over and they are signed out.
    case none
    /// Chosen here; the command starts once no dialog shows (the welcome
    /// after a sign-in, a conflict).
    case due(AccountID)
    /// The command has the terminal.
    case running(AccountID)
    /// The command has the terminal, but its person is no longer active: it is being ended.
    case ending(AccountID)
    /// The command ended; the sign-out is on its way.
    case ended(AccountID)

    /// Whose command it is, if there is one.
    var person: AccountID? {
        switch self {
        case .none: nil
        case .due(let id), .running(let id), .ending(let id), .ended(let id): id
        }
    }

    /// Whether the command has the terminal.
    public var isRunning: Bool {
        switch self {
        case .running, .ending: true
        case .none, .due, .ended: false
        }
    }
}
