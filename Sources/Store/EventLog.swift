import Foundation
import SwitchboardCore

/// One event of the log as people read it (`switchboard log`): when, in
/// which session, about whom, what. `detail` holds only what the rules
/// logged, which is never a token, a PIN or a code.
public struct LogEntry: Hashable, Sendable {
    public let id: Int64
    public let at: Date
    /// The session it happened in (`lab-3/tty1`); nil for one of no session (a credential check).
    public let session: String?
    /// `signIn`, `switch`, `signOut`, `link`, `disconnect`, `merge`, `ended`, `pin`, `check`…
    public let kind: String
    public let account: Int64?
    /// The account's name: what it is now, or what it was when the event
    /// was logged if the account is gone.
    public let accountName: String?
    public let detail: [String: String]
    /// On a shared store, the role whose connection appended it, as the
    /// server wrote it (nil for the owner's own, and on a file).
    public var origin: String? = nil
    /// The station `origin` is the role of, if it is a station's.
    public var originStation: String? = nil

    /// The role that appended an event of a session it is not the station
    /// of (the operator's, acting on a station's session from elsewhere);
    /// nil for a station's own events, the owner's, a file's, and events of
    /// no session (whose origin the log shows in place of the session).
    public var foreignOrigin: String? {
        guard let origin, let session else { return nil }
        if let station = originStation, session.hasPrefix(station + "/") { return nil }
        return origin
    }
}

/// Which events `AppDatabase.events(_:)` reads.
public struct LogQuery: Hashable, Sendable {
    /// Only a station's: sessions named `STATION/…`, and those a station of this name reported.
    public var station: String?
    /// Only an account's, by id or by name (case-blind).
    public var account: String?
    /// Only events at or after this moment.
    public var since: Date?
    /// Only events after this id (a follower's cursor).
    public var after: Int64
    /// At most this many, the newest of them when `newest` (else the oldest after `after`).
    public var limit: Int
    public var newest: Bool

    public init(station: String? = nil, account: String? = nil, since: Date? = nil, after: Int64 = 0, limit: Int = 1000, newest: Bool = true) {
        self.station = station
        self.account = account
        self.since = since
        self.after = after
        self.limit = limit
        self.newest = newest
    }
}

extension AppDatabase {
    /// Events matching `query`, oldest first.
    public func events(_ query: LogQuery) throws(StoreError) -> [LogEntry] {
        try read { db in
            var conditions = ["event.id > $1"]
            var arguments: [any SQLBindable] = [query.after]
            if let station = query.station {
                arguments.append(station)
                arguments.append(station + "/")
                let (name, prefix) = ("$\(arguments.count - 1)", "$\(arguments.count)")
                conditions.append(
                    "(substr(event.session, 1, length(\(prefix))) = \(prefix) OR event.session IN (SELECT session FROM station WHERE station = \(name)))")
            }
            if let account = query.account {
                if let id = Int64(account) {
                    arguments.append(id)
                    conditions.append("event.accountId = $\(arguments.count)")
                } else {
                    arguments.append(AccountOrder.nameKey(account))
                    let key = "$\(arguments.count)"
                    conditions.append("(event.accountId IN (SELECT id FROM account WHERE nameKey = \(key)) OR event.accountNameKey = \(key))")
                }
            }
            if let since = query.since {
                arguments.append(since)
                conditions.append("event.at >= $\(arguments.count)")
            }
            arguments.append(query.limit)
            // A shared store knows which station each role is; a file has no roles.
            let originStation = db.dialect == .postgres
                ? "(SELECT station FROM switchboard_station_role WHERE role::text = event.origin)" : "NULL"
            let sql = """
                SELECT event.id, event.at, event.session, event.kind, event.accountId, coalesce(account.name, event.accountName), event.detail,
                  event.origin, \(originStation)
                FROM event LEFT JOIN account ON account.id = event.accountId
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY event.id \(query.newest ? "DESC" : "") LIMIT $\(arguments.count)
                """
            let entries = try db.map(sql, arguments) { row in
                let detail: String = try row[6]
                return LogEntry(
                    id: try row[0], at: try row[1], session: try row[2], kind: try row[3], account: try row[4], accountName: try row[5],
                    detail: (try? JSONDecoder().decode([String: String].self, from: Data(detail.utf8))) ?? [:], origin: try row[7],
                    originStation: try row[8])
            }
            return query.newest ? entries.reversed() : entries
        }
    }

    /// Whether any account, present or removed, went by `name` (folded as
    /// account names are): what `log --account NAME` says when it finds
    /// no event.
    public func knowsAccount(named name: String) throws(StoreError) -> Bool {
        try read { db in
            let key = AccountOrder.nameKey(name)
            return try db.exists("SELECT 1 FROM account WHERE nameKey = $1", [key])
                || db.exists("SELECT 1 FROM event WHERE accountNameKey = $1", [key])
        }
    }
}
