import SwitchboardCore
import TerminalUI

/// One station's row on the operator's board, as read from the store.
public struct BoardStation: Hashable, Sendable {
    public var station: String
    public var terminal: String
    /// The session it chooses for (`lab-3/tty1`).
    public var session: String
    /// Who its session acts as; nil for Anonymous.
    public var active: AccountID?
    public var activeName: String?
    /// Since when that person (or nobody) is there.
    public var since: Moment
    public var facts: StationStatus.Facts
    /// The program's version there, when it started, when it last reported.
    public var version: String
    public var started: Moment
    public var heartbeat: Moment

    public init(
        station: String, terminal: String, session: String, active: AccountID?, activeName: String?, since: Moment, facts: StationStatus.Facts,
        version: String, started: Moment, heartbeat: Moment
    ) {
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
    public let id: Int64
    public let at: Moment
    public let session: String?
    /// The log's kind (`signIn`, `wrongPIN`…).
    public let kind: String
    public let account: AccountID?
    public let who: String
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
    /// Disconnects the person's identities everywhere: every session acting as them is signed out.
    case disconnect(AccountID, name: String)

    /// The question the confirmation asks.
    public var question: String {
        switch self {
        case .signOut(let session, let who): "Sign \(who) out of \(session)?"
        case .resetPIN(_, let name): "Clear \(name)'s count of wrong PINs?"
        case .disconnect(_, let name): "Disconnect \(name) everywhere?"
        }
    }

    /// What it means, under the question.
    public var consequence: String {
        switch self {
        case .signOut: "The station goes back to its first screen and its hand-off command is ended."
        case .resetPIN: "Their PIN can be tried again at once, at every station."
        case .disconnect: "Every identity of the account is forgotten and every session acting as it is signed out; the provider is asked to revoke the tokens."
        }
    }
}

/// A dialog open over the board.
public enum BoardDialog: Hashable, Sendable {
    /// The keys, scrolled by `scroll` lines.
    case help(scroll: Int)
    /// The operator PIN, asked before `then`; `problem` says why the last one was refused.
    case pin(digits: String, then: OperatorAction, problem: String?)
    /// Asks before `action` is done.
    case confirm(OperatorAction)
}

/// What the board does with a key on its main screen.
public enum BoardCommand: Hashable, Sendable {
    case up, down, pageUp, pageDown, top, bottom, filter, clearFilter, help, theme, quit, suspend
    case signOut, resetPIN, disconnect
}

/// Everything the operator's board shows. One loop owns it; only `reduce` changes it.
public struct BoardState: Sendable {
    public var size: Size
    public var now: Moment
    public var theme: Theme
    /// Local time for the times shown.
    public let clock: LocalClock
    /// The board's own session (`ops/pts/3`): the operator's station, in the log.
    public let operatorSession: String
    /// The stations' idle timeout and countdown, from `[kiosk]`: the
    /// countdowns shown, and how long the operator PIN is kept.
    public let idleLimit: (timeout: Double, countdown: Double)
    public internal(set) var stations: [BoardStation] = []
    /// Whether the store was read once.
    public internal(set) var loaded = false
    /// When it was last read (the board's clock then).
    public internal(set) var readAt: Moment?
    /// Positions in `stations` of the rows that pass the filter, in order.
    public internal(set) var visible: [Int] = []
    public var filter = ""
    public var isFiltering = false
    /// The selected row, an index into `visible`.
    public var selection = 0
    public var scroll = 0
    /// The selected station's key, kept across reads of the store.
    public internal(set) var selectedKey: String?
    /// The selected station's recent events, oldest first, and whose they are.
    public internal(set) var events: [BoardEvent] = []
    public internal(set) var eventsOf: String?
    public var dialog: BoardDialog?
    /// A line for the operator: what an action did, or why it could not.
    public var message: (text: String, isError: Bool, until: Moment)?
    /// While the store's server cannot be reached: what went wrong.
    public var storeOffline: String?
    /// The operator PIN while it is kept (memory only), and until when.
    var operatorPIN: (digits: String, until: Moment)?
    public var isRunning = true

    public init(size: Size, now: Moment, theme: Theme, clock: LocalClock, operatorSession: String, idleLimit: (timeout: Double, countdown: Double)) {
        self.size = size
        self.now = now
        self.theme = theme
        self.clock = clock
        self.operatorSession = operatorSession
        self.idleLimit = idleLimit
    }

    /// When a station that was up at the last read would turn offline for
    /// want of heartbeats, which do not wake the board: one read then says
    /// whether it beat meanwhile. Nil when none is due.
    public var nextOfflineCheck: Moment? {
        guard let readAt else { return nil }
        return stations.lazy.map(\.facts.offlineFrom).filter { $0 > readAt }.min()
    }

    /// Whether the operator PIN is kept now.
    public var isUnlocked: Bool { operatorPIN.map { $0.until > now } ?? false }

    /// The row selected, if any passes the filter.
    public var selectedStation: BoardStation? {
        visible.indices.contains(selection) ? stations[visible[selection]] : nil
    }

    /// A station's status now.
    public func status(_ station: BoardStation) -> StationStatus {
        StationStatus.of(station.facts, at: now, idleLimit: idleLimit)
    }

    /// Seconds since the station's last key (to the minute it reported).
    public func idleSeconds(_ station: BoardStation) -> Int { max(0, Int(station.facts.lastKey.distance(to: now))) }

    /// How many stations are in each state: up, in use, offline.
    public var counts: (up: Int, inUse: Int, offline: Int) {
        var counts = (up: 0, inUse: 0, offline: 0)
        for station in stations {
            switch status(station) {
            case .offline: counts.offline += 1
            case .inUse, .countdown, .handOff: counts.up += 1; counts.inUse += 1
            default: counts.up += 1
            }
        }
        return counts
    }

    /// Replaces the rows (sorted by station, then terminal), keeping the selection on its station.
    mutating func setStations(_ rows: [BoardStation]) {
        stations = rows.sorted { ($0.station, $0.terminal) < ($1.station, $1.terminal) }
        loaded = true
        readAt = now
        refilter()
    }

    /// Recomputes `visible` from the filter and keeps the selected station selected.
    mutating func refilter() {
        let words = filter.lowercased().split(separator: " ").map(String.init)
        visible = stations.indices.filter { index in
            guard !words.isEmpty else { return true }
            let station = stations[index]
            let text = [station.station, station.terminal, station.session, station.who, status(station).words].joined(separator: " ").lowercased()
            return words.allSatisfy { text.contains($0) }
        }
        if let key = selectedKey, let kept = visible.firstIndex(where: { stations[$0].key == key }) { selection = kept }
        clamp()
    }

    /// Keeps the selection and the scroll in range, and notes the station selected.
    mutating func clamp() {
        clampScroll(selection: &selection, scroll: &scroll, count: visible.count, shown: BoardLayout(size)?.rowsShown ?? 1)
        selectedKey = selectedStation?.key
    }

    mutating func setEvents(_ events: [BoardEvent], of key: String) {
        self.events = events
        eventsOf = key
    }
}
