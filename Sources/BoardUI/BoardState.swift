import SwitchboardCore
import ScreenKit
import TerminalUI

/// Everything the operator's board shows. One loop owns it; only `reduce` changes it.
public struct BoardState: Sendable {
    /// The terminal's size.
    public var size: Size
    /// The time of the last tick.
    public var now: Moment
    /// The colours, from `--theme` or config.toml, cycled with `t`.
    public var theme: Theme
    /// Local time for the times shown.
    public let clock: LocalClock
    /// The board's own session (`ops/pts/3`): the operator's station, in the log.
    public let operatorSession: String
    /// The stations' idle timeout and countdown, from `[kiosk]`: the
    /// countdowns shown, and how long the operator PIN is kept.
    public let idleLimit: (timeout: Double, countdown: Double)
    /// Every station read, by station then terminal.
    public internal(set) var stations: [BoardStation] = []
    /// Whether the store was read once.
    public internal(set) var loaded = false
    /// When it was last read (the board's clock then).
    public internal(set) var readAt: Moment?
    /// Positions in `stations` of the rows that pass the filter, in order.
    public internal(set) var visible: [Int] = []
    /// The filter's text; empty shows every station.
    public var filter = ""
    /// Whether keys are typed into the filter.
    public var isFiltering = false
    /// The rows' order.
    public var order = BoardOrder.station
    /// The selected row, an index into `visible`.
    public var selection = 0
    /// The first row shown.
    public var scroll = 0
    /// The selected station's key, kept across reads of the store.
    public internal(set) var selectedKey: String?
    /// The selected station's recent events, oldest first, and whose they are.
    public internal(set) var events: [BoardEvent] = []
    public internal(set) var eventsOf: String?
    /// A dialog open over the board.
    public var dialog: BoardDialog?
    /// A line for the operator: what an action did, or why it could not.
    public var message: (text: String, isError: Bool, until: Moment)?
    /// While the store's server cannot be reached: what went wrong.
    public var storeOffline: String?
    /// Whether a store call has been out a while (an operator action, a read).
    public var storeWaiting = false
    /// The operator PIN while it is kept (memory only), and until when.
    var operatorPIN: (digits: String, until: Moment)?
    /// False once the operator quit.
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
        if order != .station {
            // Stable: stations that tie keep their order by name.
            let keys = Dictionary(uniqueKeysWithValues: visible.map { ($0, sortKey(stations[$0])) })
            visible.sort { (keys[$0] ?? 0, $0) < (keys[$1] ?? 0, $1) }
        }
        if let key = selectedKey, let kept = visible.firstIndex(where: { stations[$0].key == key }) { selection = kept }
        clamp()
    }

    /// Where a station goes in `order` (lower first).
    private func sortKey(_ station: BoardStation) -> Int {
        switch order {
        case .station: return 0
        case .idle: return -idleSeconds(station)
        case .state:
            switch status(station) {
            case .offline: return 0
            case .lockedOut: return 1
            case .countdown: return 2
            case .handOff: return 3
            case .inUse: return 4
            case .idle: return 5
            }
        }
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
