import Foundation
import SwitchboardCore

/// A running station as it reports itself in the store (`station`): who it
/// is, what runs there and when it was last heard from. Never a key, only
/// when the last one was pressed, to the minute.
public struct StationReport: Hashable, Sendable {
    /// The station's name in the fleet (`[store] station`, else the host name).
    public var station: String
    /// Its terminal (`tty1`, `pts/3`).
    public var terminal: String
    /// The session it chooses for (`lab-3/tty1` on a shared store).
    public var session: String
    /// The program's version.
    public var version: String
    /// When the kiosk started.
    public var startedAt: Date
    /// When a key was last pressed there, rounded down to the minute; nil before the first.
    public var lastKeyAt: Date?
    /// When it last said it was running.
    public var heartbeatAt: Date
    /// How often it says so, in seconds.
    public var heartbeatSeconds: Int
    /// Whether the station's hand-off command is running.
    public var handOffRunning: Bool
    /// When it stopped on its own (nil while it runs).
    public var stoppedAt: Date?
    /// How many seconds its clock is ahead of the fleet's (behind:
    /// negative), as its last heartbeat measured; nil before one did.
    public var clockSkew: Double?

    public init(
        station: String, terminal: String, session: String, version: String, startedAt: Date, lastKeyAt: Date? = nil,
        heartbeatAt: Date, heartbeatSeconds: Int, handOffRunning: Bool = false, stoppedAt: Date? = nil, clockSkew: Double? = nil
    ) {
        self.station = station
        self.terminal = terminal
        self.session = session
        self.version = version
        self.startedAt = startedAt
        self.lastKeyAt = lastKeyAt
        self.heartbeatAt = heartbeatAt
        self.heartbeatSeconds = heartbeatSeconds
        self.handOffRunning = handOffRunning
        self.stoppedAt = stoppedAt
        self.clockSkew = clockSkew
    }

    /// Its clock's distance from the fleet's when past `tolerance` seconds, else nil.
    public func clockOff(tolerance: Double = StationReport.clockTolerance) -> Double? {
        clockSkew.flatMap { abs($0) > tolerance ? $0 : nil }
    }

    /// How far a station's clock may be from the fleet's before it is said (5 s).
    public static let clockTolerance = 5.0

    /// How many heartbeats a station may miss before it counts as offline.
    public static let missedHeartbeats = 3

    /// Whether the station is gone at `now`: it stopped, or missed three heartbeats.
    public func isOffline(at now: Date) -> Bool {
        stoppedAt != nil || now.timeIntervalSince(heartbeatAt) > Double(Self.missedHeartbeats * heartbeatSeconds)
    }

    /// `date` rounded down to the minute: what a station tells of its last key.
    public static func minute(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }
}

// The stations' rows. Reporting appends nothing to the event log: a
// heartbeat is a fact about now, not history. A heartbeat wakes no change
// feed (`writeUnannounced`); a start and a stop do.
extension AppDatabase {
    /// One write that tells no change feed, mapping engine errors to `StoreError`.
    func writeUnannounced<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        if isReadOnly { throw .unavailable(path: path, detail: Self.readOnlyStore(path)) }
        do { return try engine.writeUnannounced(body) } catch { throw engine.storeError(error) }
    }

    /// Records that a station has started on the machine `instance` names
    /// (replacing what an earlier run there left), in one transaction; or,
    /// when another machine runs a station of the same name and terminal
    /// (its row not stopped, its heartbeat not missed three times),
    /// writes nothing and says since when that one was heard from: two
    /// machines must not share one session.
    ///
    /// With `logClash`, a refusal is logged in the station's session
    /// (`nameTaken`), so that the log and the board's events say so.
    @discardableResult
    public func stationStarted(_ report: StationReport, instance: String, logClash: Bool = false) throws(StoreError) -> StationStart {
        try write { db in
            let held = try db.first(
                "SELECT instance, heartbeatAt, heartbeatSeconds, stoppedAt FROM station WHERE station = $1 AND terminal = $2",
                [report.station, report.terminal]
            ) { row in (instance: try row[0] as String?, heard: try row[1] as Date, seconds: try row[2] as Int, stopped: try row[3] as Date?) }
            if let held, let other = held.instance, other != instance, held.stopped == nil,
                report.heartbeatAt.timeIntervalSince(held.heard) <= Double(StationReport.missedHeartbeats * held.seconds) {
                if logClash { try Self.log("nameTaken", session: SessionKey(stored: report.session), account: nil, [:], db: db, at: report.heartbeatAt) }
                return .taken(heardAt: held.heard)
            }
            try db.execute(
                """
                INSERT INTO station (station, terminal, session, version, startedAt, lastKeyAt, heartbeatAt, heartbeatSeconds, handOffRunning,
                  stoppedAt, instance)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10)
                ON CONFLICT (station, terminal) DO UPDATE SET
                  session = excluded.session, version = excluded.version, startedAt = excluded.startedAt,
                  lastKeyAt = excluded.lastKeyAt, heartbeatAt = excluded.heartbeatAt,
                  heartbeatSeconds = excluded.heartbeatSeconds, handOffRunning = excluded.handOffRunning, stoppedAt = NULL,
                  instance = excluded.instance
                """,
                [report.station, report.terminal, report.session, report.version, report.startedAt, report.lastKeyAt.map(StationReport.minute),
                 report.heartbeatAt, report.heartbeatSeconds, report.handOffRunning, instance])
            return .started
        }
    }

    /// A station's heartbeat: it runs at `date`, its last key (to the minute)
    /// and whether its hand-off command runs. A station whose row is gone
    /// (a store copied or cleared under it), or is another machine's now,
    /// is told so by `false`.
    @discardableResult
    public func stationHeartbeat(
        station: String, terminal: String, instance: String, lastKeyAt: Date?, handOffRunning: Bool, clockSkew: Double? = nil,
        at date: Date = Date()
    ) throws(StoreError) -> Bool {
        try writeUnannounced { db in
            try db.execute(
                """
                UPDATE station SET heartbeatAt = $3, lastKeyAt = $4, handOffRunning = $5, stoppedAt = NULL, clockSkew = $7
                WHERE station = $1 AND terminal = $2 AND instance = $6
                """,
                [station, terminal, date, lastKeyAt.map(StationReport.minute), handOffRunning, instance, clockSkew]) == 1
        }
    }

    /// Records that a station stopped on its own (its row stays, offline),
    /// if the row is still the machine `instance`'s.
    public func stationStopped(station: String, terminal: String, instance: String, at date: Date = Date()) throws(StoreError) {
        _ = try write { db in
            try db.execute(
                "UPDATE station SET stoppedAt = $3 WHERE station = $1 AND terminal = $2 AND instance = $4", [station, terminal, date, instance])
        }
    }

    /// Every station that has reported, by name then terminal.
    public func stations() throws(StoreError) -> [StationReport] {
        try read { db in
            try db.map(
                """
                SELECT station, terminal, session, version, startedAt, lastKeyAt, heartbeatAt, heartbeatSeconds, handOffRunning, stoppedAt,
                  clockSkew
                FROM station ORDER BY station, terminal
                """
            ) { row in
                StationReport(
                    station: try row[0], terminal: try row[1], session: try row[2], version: try row[3], startedAt: try row[4],
                    lastKeyAt: try row[5], heartbeatAt: try row[6], heartbeatSeconds: try row[7], handOffRunning: try row[8],
                    stoppedAt: try row[9], clockSkew: try row[10])
            }
        }
    }
}

/// How a station's start went.
public enum StationStart: Hashable, Sendable {
    /// Its row is written: it is this station.
    case started
    /// Another machine runs a station of the same name and terminal, last
    /// heard from at `heardAt`; nothing was written.
    case taken(heardAt: Date)
}

/// A station's row as the fleet sees it: its report and who its session acts as.
public struct FleetStation: Hashable, Sendable {
    public let report: StationReport
    /// The account its session acts as; nil for Anonymous.
    public let account: Int64?
    public let accountName: String?
    /// When its session last changed who it acts as (nil when it never chose).
    public let since: Date?
    /// Until when its session is locked out: its newest choice was a PIN
    /// given wrong (or while locked) that locked the account; nil otherwise.
    public let lockedUntil: Date?
}

extension AppDatabase {
    /// Until when the newest choice event of a session (`kind detail`) left it locked out.
    static func lockedUntil(_ newest: String?) -> Date? {
        guard let newest, newest.hasPrefix("wrongPIN "),
              let detail = try? JSONDecoder().decode([String: String].self, from: Data(newest.dropFirst(9).utf8)),
              let until = detail["lockedUntil"]
        else { return nil }
        return ISO8601DateFormatter().date(from: until)
    }

    /// Every station with who its session acts as, in one snapshot, by name
    /// then terminal. The session is the one the running kiosk reported, so
    /// its row is read as it stands (the kiosk's own terminal chose it).
    public func fleet() throws(StoreError) -> [FleetStation] {
        try read { db in
            try db.map(
                """
                SELECT station.station, station.terminal, station.session, station.version, station.startedAt, station.lastKeyAt,
                  station.heartbeatAt, station.heartbeatSeconds, station.handOffRunning, station.stoppedAt, station.clockSkew,
                  session.accountId, account.name, session.updatedAt,
                  (SELECT event.kind || ' ' || event.detail FROM event
                   WHERE event.session = station.session AND event.kind IN ('wrongPIN', 'switch', 'signIn', 'signOut')
                   ORDER BY event.id DESC LIMIT 1)
                FROM station
                  LEFT JOIN session ON session.key = station.session
                  LEFT JOIN account ON account.id = session.accountId
                ORDER BY station.station, station.terminal
                """
            ) { row in
                FleetStation(
                    report: StationReport(
                        station: try row[0], terminal: try row[1], session: try row[2], version: try row[3], startedAt: try row[4],
                        lastKeyAt: try row[5], heartbeatAt: try row[6], heartbeatSeconds: try row[7], handOffRunning: try row[8],
                        stoppedAt: try row[9], clockSkew: try row[10]),
                    account: try row[11], accountName: try row[12], since: try row[13], lockedUntil: Self.lockedUntil(try row[14]))
            }
        }
    }
}

extension FleetStation {
    /// What `StationStatus` needs of the row: offline once it stopped, or
    /// from its heartbeat plus the beats it may miss.
    public var facts: StationStatus.Facts {
        let report = self.report
        func moment(_ date: Date) -> Moment { Moment(secondsSince1970: date.timeIntervalSince1970) }
        // A stopped station is offline whatever the clocks of the two machines say.
        let offlineFrom = report.stoppedAt != nil ? Date.distantPast
            : report.heartbeatAt.addingTimeInterval(Double(StationReport.missedHeartbeats * report.heartbeatSeconds))
        return StationStatus.Facts(
            signedIn: account != nil, handOffRunning: report.handOffRunning, offlineFrom: moment(offlineFrom),
            lockedUntil: lockedUntil.map { moment($0) }, lastKey: moment(report.lastKeyAt ?? report.startedAt))
    }
}
