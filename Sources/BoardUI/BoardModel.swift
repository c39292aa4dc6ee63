import ScreenKit
import SwitchboardCore

/// One station's row on the operator's board, as read from the store.
public struct BoardStation: Hashable, Sendable {
    /// The station's name in the fleet (`lab-3`).
    public var station: String
    /// Its terminal (`tty1`).
    public var terminal: String
    /// The session it chooses for (`lab-3/tty1`).
    public var session: String
    /// Who its session acts as; nil for Anonymous.
    public var active: AccountID?
    /// That account's name, while it exists.
    public var activeName: String?
    /// Since when that person (or nobody) is there.
    public var since: Moment
    /// What its status is worked out from, at any moment.
    public var facts: StationStatus.Facts
    /// The program's version there, when it started, when it last reported.
    public var version: String
    public var started: Moment
    public var heartbeat: Moment
    /// How many seconds its clock is from the fleet's, when past the tolerance; else nil.
    public var clockOff: Double?

    public init(
        station: String, terminal: String, session: String, active: AccountID?, activeName: String?, since: Moment, facts: StationStatus.Facts,
        version: String, started: Moment, heartbeat: Moment, clockOff: Double? = nil
    ) {
        self.clockOff = clockOff
        self.version = version
        self.started = started
        self.heartbeat = heartbeat
        self.station = station
        self.terminal = terminal
        self.session = session
        self.active = active
        self.activeName = activeName
        self.since = since
        self.facts = facts
    }

    /// `station/terminal`: what the selection and the detail pane keep to.
    public var key: String { station + "/" + terminal }
    /// Who is there, as the board says it.
    public var who: String { activeName ?? active.map { "account \($0.rawValue)" } ?? "Anonymous" }
}

/// One event of a station's recent history, worded for people.
public struct BoardEvent: Hashable, Sendable {
    /// Its id in the log.
    public let id: Int64
    /// When it happened.
    public let at: Moment
    /// The session it happened in, if any.
    public let session: String?
    /// The log's kind (`signIn`, `wrongPIN`…).
    public let kind: String
    /// The account it is about, if any.
    public let account: AccountID?
    /// Who, as `switchboard log` says it.
    public let who: String
    /// What, as `switchboard log` says it.
    public let what: String

    public init(id: Int64, at: Moment, session: String?, kind: String, account: AccountID?, who: String, what: String) {
        self.id = id
        self.at = at
        self.session = session
        self.kind = kind
        self.account = account
        self.who = who
        self.what = what
    }
}

/// What an operator does to a station from the board.
public enum OperatorAction: Hashable, Sendable {
    /// Signs the station's session out: the kiosk goes back to its first screen.
    case signOut(session: String, who: String)
    /// Clears the wrong-PIN count of the account (the one locked out, or the one active).
    case resetPIN(AccountID, name: String)
    /// Disconnects one identity of `name`'s `account` everywhere; `isLast`
    /// when it was the account's only one when read, which then goes too,
    /// every session acting as it signed out.
    case disconnect(LinkedIdentity, of: AccountID, name: String, isLast: Bool)

    /// The question the confirmation asks.
    public var question: String {
        switch self {
        case .signOut(let session, let who): "Sign \(who) out of \(session)?"
        case .resetPIN(_, let name): "Clear \(name)'s count of wrong PINs?"
        case .disconnect(let identity, _, let name, _): "Disconnect \(name)'s \(identity.provider.rawValue) identity (\(identity.identity)) everywhere?"
        }
    }

    /// What it means, under the question.
    public var consequence: String {
        switch self {
        case .signOut: "The station goes back to its first screen and its hand-off command is ended."
        case .resetPIN: "Their PIN can be tried again at once, at every station."
        case .disconnect(_, _, _, let isLast):
            "The provider is asked to revoke its tokens and every station forgets it. "
                + (isLast ? "It is the account's only identity: the account goes too, and every session acting as it is signed out."
                    : "The account keeps its other identities.")
        }
    }
}

/// How an operator action ended.
public enum ActionOutcome: Hashable, Sendable {
    /// Done; `aside` is what else the operator should know.
    case done(aside: String?)
    /// Refused, with why; `pinRefused` when it was the operator PIN that
    /// was refused (then it is asked again next time).
    case refused(String, pinRefused: Bool)
}

/// A dialog open over the board.
public enum BoardDialog: Hashable, Sendable {
    /// The keys, scrolled by `scroll` lines.
    case help(scroll: Int)
    /// The operator PIN, asked before `then`.
    case pin(PINField, then: OperatorAction)
    /// Asks before `action` is done.
    case confirm(OperatorAction)
    /// Which identity of `name`'s `account` to disconnect.
    case chooseIdentity(account: AccountID, name: String, identities: [LinkedIdentity], selection: Int)
}

/// What the board does with a key on its main screen.
public enum BoardCommand: Hashable, Sendable {
    case up, down, pageUp, pageDown, top, bottom, filter, clearFilter, sort, help, theme, quit, suspend
    case signOut, resetPIN, disconnect
}

/// The order of the board's rows, cycled with `s`.
public enum BoardOrder: CaseIterable, Hashable, Sendable {
    /// By station, then terminal.
    case station
    /// The longest idle first.
    case idle
    /// Those that need the operator first: offline, locked out, counting down, then the rest.
    case state

    /// How the stations' frame names it.
    public var title: String {
        switch self {
        case .station: "Stations"
        case .idle: "Stations · longest idle first"
        case .state: "Stations · by state"
        }
    }

    /// The order after this one.
    public var next: BoardOrder {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}
