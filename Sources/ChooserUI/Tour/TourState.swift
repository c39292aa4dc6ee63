import ScreenKit
import SwitchboardCore
import TerminalUI

/// What the tour asks of the world outside the reducer, carried out by the
/// loop (`TourEffect.request`); the answer comes back as `TourAction.answered`.
public enum TourRequest: Hashable, Sendable {
    /// The demo provider's switches for the codes it issues next.
    case settings(expiresIn: Int, interval: Int, slowDownPolls: Int)
    /// Approve the code as a demo person, through the provider's approval API.
    case approve(userCode: String, person: String)
    /// Deny the code, through the provider's approval API.
    case deny(userCode: String)
    /// An empty store in place of the one the chooser shows.
    case freshStore
}

/// What must hold before the tour goes on.
public enum TourCondition: Hashable, Sendable {
    /// The sign-in dialog shows a code.
    case codeShown
    /// The provider has answered a poll with `slow_down`.
    case slowedDown
    /// The sign-in dialog shows how it ended.
    case signInEnded
    /// The conflict dialog asks merge, switch or cancel.
    case conflictShown
    /// No dialog is open.
    case noDialog

    /// What is waited for, in words.
    var waitedFor: String {
        switch self {
        case .codeShown: "a code"
        case .slowedDown: "a slow_down answer"
        case .signInEnded: "the sign-in to end"
        case .conflictShown: "the conflict dialog"
        case .noDialog: "the dialog to close"
        }
    }
}

/// One move of the tour: keys pressed as a person would, the demo
/// provider asked, or a wait.
public enum TourMove: Hashable, Sendable {
    /// Waits this many beats, so the room can read the screen.
    case pause(beats: Double)
    /// Presses a key, through the chooser's own key tables.
    case press(Key)
    /// In the open provider list, moves to this provider and presses Enter.
    case chooseProvider(ProviderID)
    /// Moves the accounts pane's selection to the account of this name.
    case selectAccount(named: String)
    /// Presses `i` when the inspector is hidden.
    case showInspector
    /// Asks the demo provider for this code lifetime, poll interval and
    /// number of `slow_down` answers for the next codes.
    case settings(expiresIn: Int, interval: Int, slowDownPolls: Int)
    /// Approves the code on screen as this demo person.
    case approve(person: String)
    /// Denies the code on screen.
    case deny
    /// Waits until the condition holds (at most `TourState.waitLimit`).
    case until(TourCondition)
    /// Starts the script again, in an empty store.
    case again
}

/// A step of the tour: a caption for the room and the moves that show it.
public struct TourStep: Hashable, Sendable {
    public let caption: String
    public let moves: [TourMove]

    public init(_ caption: String, _ moves: [TourMove]) {
        self.caption = caption
        self.moves = moves
    }
}

/// `demo tour`: the chooser walking itself through a script, until a key
/// hands it to the person; after `idle` seconds without one it starts again
/// in an empty store.
public struct TourState: Sendable {
    /// Who has the chooser.
    public enum Mode: Hashable, Sendable {
        case touring
        /// The person, whose last key or click came at this time.
        case person(lastInput: Moment)
    }

    public let script: [TourStep]
    /// Seconds a beat of a pause lasts.
    public let beat: Double
    /// Seconds without a key before the tour takes the chooser back.
    public internal(set) var idle: Double
    public internal(set) var mode: Mode = .touring
    /// The step shown, an index into `script`.
    public internal(set) var step = 0
    /// The move of that step to make next.
    public internal(set) var move = 0
    /// Rounds begun, this one included.
    public internal(set) var round = 1
    /// Why the tour had to start again, shown until its first step is over.
    public internal(set) var notice: String?
    var pauseUntil: Moment?
    var waitingSince: Moment?
    /// The request whose answer the tour waits for.
    var pending: Int?
    /// Whether that request is for an empty store (which, refused, stops the tour).
    var pendingFreshStore = false
    var nextRequest = 1
    /// Whether the script should be looked at on the next tick.
    var due = true
    /// When input last arrived (the loop's stamp on it).
    var lastActivity: Moment?

    /// While the person has the chooser: the idle rule that gives it back to the tour.
    var personIdle: IdleClock? {
        guard case .person(let last) = mode else { return nil }
        return IdleClock(since: last, timeout: idle)
    }

    /// The longest a `.until` waits before the tour gives up and starts again.
    public static let waitLimit = 60.0

    public init(script: [TourStep], beat: Double, idle: Double) {
        self.script = script
        self.beat = beat
        self.idle = idle
    }
}
