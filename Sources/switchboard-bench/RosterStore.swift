import Foundation
import GRDB
import Store
import SwitchboardCore

/// The stores `switchboard-bench roster` measures: made by the program's
/// own migrations (`AppDatabase`), then filled in one transaction, as a
/// school's or a library's would be after years of use.
enum RosterStore {
    /// The session the chooser and the commands run in.
    static let session = "bench"

    /// The unique name of account `index` (ids from 1): a synthetic name and its number.
    static func name(_ index: Int) -> String { "\(Synthetic.account(index).name) \(index + 1)" }

    /// Makes a store of `count` accounts at `path`: `Synthetic` accounts
    /// with unique names, two in three used at some time over the last
    /// year, one to three identities each; the session "bench" acts as the
    /// first account.
    static func make(path: String, accounts count: Int) throws {
        _ = try AppDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        let now = Date()
        try queue.write { db in
            let account = try db.makeStatement(sql: """
                INSERT INTO account (id, name, nameKey, createdAt, lastUsedAt, useCount) VALUES (?, ?, ?, ?, ?, ?)
                """)
            let identity = try db.makeStatement(sql: """
                INSERT INTO identity (provider, subject, accountId, displayName, email, emailKey, emailVerified, state, linkedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for index in 0..<count {
                let synthetic = Synthetic.account(index), name = Self.name(index)
                let used: Date? = index % 3 == 2 ? nil : now.addingTimeInterval(-Double((index &* 7919) % (365 * 86_400)))
                try account.execute(arguments: [index + 1, name, AccountOrder.nameKey(name), now, used, (index &* 31) % 50])
                for linked in synthetic.identities {
                    try identity.execute(arguments: [
                        linked.provider.rawValue, linked.identity.subject, index + 1, linked.displayName, linked.email,
                        linked.email.map(AccountOrder.emailKey), linked.emailVerified, linked.state.rawValue, now,
                    ])
                }
            }
            try db.execute(
                sql: "INSERT INTO session (key, accountId, updatedAt) VALUES (?, 1, ?)", arguments: [session, now])
        }
        try queue.close()
    }

    /// The account session `station` (of `stations`) acts as after
    /// `events` switches were logged round the stations (`burst`).
    static func finalAccount(station: Int, stations: Int, events: Int, accounts: Int) -> Int {
        let last = events - 1 - ((events - 1 - station) % stations)
        return 1 + (last &* 7919) % accounts
    }

    /// The session name of station `number`; station 0 is the chooser's own.
    static func station(_ number: Int) -> String { number == 0 ? session : "station-\(number)" }

    /// Another program's burst: `events` switches logged round `stations`
    /// sessions in one transaction of plain SQL, each session then left
    /// acting as its last switch says (`finalAccount`). Returns its seconds.
    static func burst(path: String, events: Int, stations: Int, accounts: Int) throws -> Double {
        let queue = try DatabaseQueue(path: path)
        let start = now()
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO event (at, session, kind, accountId, detail)
                SELECT ?, CASE WHEN i % ? = 0 THEN ? ELSE 'station-' || (i % ?) END, 'switch', 1 + (i * 7919) % ?, '{}' FROM n
                """, arguments: [events - 1, Date(), stations, session, stations, accounts])
            for number in 0..<stations {
                let account = finalAccount(station: number, stations: stations, events: events, accounts: accounts)
                try db.execute(sql: """
                    INSERT INTO session (key, accountId, updatedAt) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET accountId = excluded.accountId, updatedAt = excluded.updatedAt
                    """, arguments: [station(number), account, Date()])
                try db.execute(sql: "UPDATE account SET lastUsedAt = ?, useCount = useCount + 1 WHERE id = ?", arguments: [Date(), account])
            }
        }
        let seconds = now() - start
        try queue.close()
        return seconds
    }
}
