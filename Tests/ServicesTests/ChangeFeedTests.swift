import Foundation
import GRDB
import Postgres
import PostgresServer
import Store
import SwitchboardCore
import Testing
import TestBasics
import TestSupport
@testable import Services

/// A store of either engine, and how a second program opens it.
enum FeedStore: String, CaseIterable, Sendable {
    case sqlite, postgres

    /// A fresh store's location; `folder` holds a SQLite file.
    func location(in folder: TemporaryFolder) throws -> StoreLocation {
        switch self {
        case .sqlite: .file(folder.file("switchboard.sqlite"))
        case .postgres: .server(try TestPostgres.freshStore(suite: #fileID))
        }
    }
}

/// The feed with real inotify on SQLite, real LISTEN on PostgreSQL: a
/// second `AppDatabase` on the store stands for another process (or
/// station); its commits must reach this process's bus.
@Suite("the change feed across processes")
struct ChangeFeedTests {
    @Test("another writer's switch and sign-in reach the bus as external changes, the feed's own process's writes do not",
          arguments: FeedStore.allCases)
    func othersReachTheBus(_ store: FeedStore) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let location = try store.location(in: folder)
        let database = try AppDatabase(testing: location), other = try AppDatabase(testing: location)
        let session = SessionKey("pts/7")!
        let listener = try FeedListener(database)
        defer { listener.feed.cancel() }
        let (statuses, accounts, subscriptions) = (listener.statuses, listener.accounts, listener.subscriptions)

        try Sample.signIn([Sample.adaGitHub], into: database, session: session)  // this process: not fed
        let grace = try Sample.signIn([Sample.graceGitHub], into: other, session: session)[0]
        try await waitUntil { statuses.all.count >= 1 }
        #expect(statuses.all.map(\.current.id) == [grace])
        #expect(statuses.all.first?.reason == .external)
        #expect(accounts.all == [AccountsChanged(accounts: [grace])])

        _ = try other.signOut(session: session)
        try await waitUntil { statuses.all.count >= 2 }
        #expect(statuses.all.last?.current == .anonymous && statuses.all.last?.previous.id == grace)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a burst of another program's writes, longer than the feed replays, reaches the bus as each changed session's final state")
    func burstCaughtUp() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let database = try AppDatabase(path: path), other = try AppDatabase(path: path)
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub, Sample.graceMicrosoft], into: other, session: SessionKey("setup")!)
        let bus = NotificationBus()
        let statuses = Recorder<UserStatusChanged>()
        let subscription = bus.subscribe(UserStatusChanged.self, on: .inline) { statuses.add($0) }
        let feed = try ChangeFeed(database: database, bus: bus)
        defer { feed.cancel() }
        // Another program: 1,500 switches round three stations in one transaction of plain SQL,
        // each station left as its last switch says.
        let finals = (0..<3).map { station in ids[(1497 + station) % 3] }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1499)
                INSERT INTO event (at, session, kind, accountId, detail)
                SELECT '2026-01-01 00:00:00.000', 'lab-' || (i % 3), 'switch', ?1 + i % 3, '{}' FROM n
                """, arguments: [ids[0].rawValue])
            for (station, account) in finals.enumerated() {
                try db.execute(sql: "INSERT INTO session (key, accountId, updatedAt) VALUES (?, ?, 0)", arguments: ["lab-\(station)", account.rawValue])
            }
        }
        try await waitUntil { statuses.all.count >= 3 }
        let byStation = Dictionary(statuses.all.map { ($0.session.rawValue, $0.current.id) }, uniquingKeysWith: { $1 })
        #expect(statuses.all.count == 3, "once each: \(statuses.all.map(\.session))")
        #expect(byStation == ["lab-0": finals[0], "lab-1": finals[1], "lab-2": finals[2]], "\(byStation)")
        #expect(statuses.all.allSatisfy { $0.reason == .external })
        withExtendedLifetime(subscription) {}
    }

    @Test("a store with a change watch holds one connection at rest: its reads and writes borrow the listener's, and changes still arrive between them")
    func listenerLends() async throws {
        let url = try TestPostgres.freshStore(suite: #fileID)
        let name = "switchboard lends-\(UInt32.random(in: 0...UInt32.max))"
        let db = try AppDatabase(url: url, pinRounds: 1000, applicationName: name)
        let other = try AppDatabase(url: url, pinRounds: 1000, applicationName: "switchboard other")
        let admin = try PGConnection.connect(url)
        defer { admin.close() }
        func open() throws -> Int {
            let count = try admin.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [PGParameter(type: PGType.text, text: name)])
            return count.text(0, 0).flatMap { Int($0) } ?? -1
        }
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: SessionKey("setup")!)
        let bus = NotificationBus(), statuses = Recorder<UserStatusChanged>()
        let subscription = bus.subscribe(UserStatusChanged.self, on: .inline) { statuses.add($0) }
        let feed = try ChangeFeed(database: db, bus: bus)
        defer { feed.cancel() }
        // The pool's connection becomes the listener's.
        try await waitUntil { (try? open()) == 1 }
        // Another station switches while this one reads and writes on the listener's connection.
        let elsewhere = SessionKey("lab-1/tty1")!, here = SessionKey("lab-2/tty1")!
        for round in 0..<20 {
            _ = try other.switchAccount(to: ids[round % 2], session: elsewhere)
            _ = try db.accounts()
            _ = try db.switchAccount(to: ids[(round + 1) % 2], session: here)
        }
        try await waitUntil { statuses.all.count >= 20 }
        #expect(statuses.all.map(\.session) == Array(repeating: elsewhere, count: 20), "none of its own, all of the other's")
        #expect(statuses.all.map { $0.current.id } == (0..<20).map { ids[$0 % 2] }, "in order")
        // A spare opened while the listener's was busy closes once unused for its lifetime: one connection at rest again.
        try await waitUntil { (try? open()) == 1 }
        withExtendedLifetime(subscription) {}
    }

    @Test("through PgBouncer's transaction pooling, polling stations share two server connections and hear each other's switches")
    func throughPgBouncer() async throws {
        let cluster = try TestPostgres.cluster()
        let name = "t_pgbouncer_\(UInt32.random(in: 0...UInt32.max))"
        try cluster.createDatabase(name)
        let pooler = try ThrowawayPooler(for: cluster, database: name, serverConnections: 2)
        defer { pooler.stop() }
        let count = 8
        let stations = try (0..<count).map { number in
            try AppDatabase(url: pooler.url(), pinRounds: 1000, watching: .poll(seconds: 0.1), applicationName: "switchboard pooled-\(number)")
        }
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: stations[0], session: SessionKey("setup")!)
        let heard = (0..<count).map { _ in Recorder<UserStatusChanged>() }
        var feeds: [ChangeFeed] = [], subscriptions: [Subscription] = []
        for (station, recorder) in zip(stations, heard) {
            let bus = NotificationBus()
            subscriptions.append(bus.subscribe(UserStatusChanged.self, on: .inline) { recorder.add($0) })
            feeds.append(try ChangeFeed(database: station, bus: bus))
        }
        defer { feeds.forEach { $0.cancel() } }
        // Each station switches its own terminal; every other hears it, as the last state of that terminal.
        for (number, station) in stations.enumerated() {
            _ = try station.switchAccount(to: ids[number % 2], session: SessionKey("lab-\(number)/tty1")!)
        }
        try await waitUntil { heard.allSatisfy { $0.all.count >= count - 1 } }
        for (number, recorder) in heard.enumerated() {
            let sessions = Set(recorder.all.map(\.session.rawValue))
            #expect(sessions == Set((0..<count).filter { $0 != number }.map { "lab-\($0)/tty1" }), "station \(number) heard \(sessions)")
        }
        // The server saw no more than the pooler's two connections for all of them.
        let admin = try PGConnection.connect(cluster.url(database: name))
        defer { admin.close() }
        let server = try admin.query(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [PGParameter(type: PGType.text, text: name)])
        #expect(Int(server.text(0, 0) ?? "") ?? 99 <= 2, "\(server.text(0, 0) ?? "?") server connections")
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a listener cut off from the server says the store is offline, listens again, and reads what was committed meanwhile")
    func listenerReconnects() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let location = try FeedStore.postgres.location(in: folder)
        guard case .server(let url) = location else { return }
        let name = "switchboard listener-\(UInt32.random(in: 0...UInt32.max))"
        let database = try AppDatabase(url: url, pinRounds: 1000, applicationName: name), other = try AppDatabase(testing: location)
        let session = SessionKey("lab-3/tty1")!
        let bus = NotificationBus()
        let statuses = Recorder<UserStatusChanged>(), reachability = Recorder<StoreReachabilityChanged>()
        let subscriptions = [
            bus.subscribe(UserStatusChanged.self, on: .inline) { statuses.add($0) },
            bus.subscribe(StoreReachabilityChanged.self, on: .inline) { reachability.add($0) },
        ]
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: SessionKey("setup")!)
        let feed = try ChangeFeed(database: database, bus: bus)
        defer { feed.cancel() }
        // Listening: a switch elsewhere arrives.
        _ = try other.switchAccount(to: ids[0], session: session)
        try await waitUntil { statuses.all.count >= 1 }

        // The server ends the listener's connection (as a restart would): the
        // only one the store holds at rest, its reads and writes borrowing it.
        let admin = try PGConnection.connect(url)
        let ended = try admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [PGParameter(type: PGType.text, text: name)])
        #expect(ended.rowCount == 1)
        try await waitUntil { reachability.all.first?.online == false }
        // Meanwhile two stations switch: nobody hears it now.
        let elsewhere = SessionKey("lab-4/tty1")!
        _ = try other.switchAccount(to: ids[1], session: session)
        _ = try other.switchAccount(to: ids[0], session: elsewhere)
        try await waitUntil { reachability.all.last?.online == true }
        try await waitUntil { statuses.all.count >= 3 }
        #expect(statuses.all.map(\.session) == [session, session, elsewhere])
        #expect(statuses.all[1].current.id == ids[1] && statuses.all[2].current.id == ids[0], "read from the cursor, in order")
        #expect(reachability.all.map(\.online) == [false, true])
        let detail = reachability.all.first?.detail ?? ""
        #expect(detail.hasPrefix("postgresql://switchboard@127.0.0.1:") && detail.contains("connection to the server lost"), "\(detail)")
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a role with nothing but CONNECT sends notifications in the change format on the store's channel: the feed publishes none, and the real changes after")
    func forgedNotifications() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let location = try FeedStore.postgres.location(in: folder)
        guard case .server(let url) = location else { return }
        let database = try AppDatabase(testing: location), other = try AppDatabase(testing: location)
        let here = SessionKey("lab-3/tty1")!, there = SessionKey("lab-4/tty1")!
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: SessionKey("setup")!)
        _ = try other.switchAccount(to: ids[0], session: here)
        let listener = try FeedListener(database)
        defer { listener.feed.cancel() }
        let (statuses, accounts, subscriptions) = (listener.statuses, listener.accounts, listener.subscriptions)

        // A role that may only connect: no table, not even the schema, is its to read.
        let admin = try PGConnection.connect(url)
        let role = "forger_" + UUID().uuidString.prefix(8).lowercased()
        try admin.execute("CREATE ROLE \(role) LOGIN")
        let forger = try PGConnection.connect(url.replacingOccurrences(of: "postgresql://switchboard@", with: "postgresql://\(role)@"))
        #expect(try forger.query("SELECT current_user").text(0, 0) == role)
        #expect(throws: PGError.self) { try forger.query("SELECT count(*) FROM event") }
        // It computes the channel's name from the schema's, as anyone may.
        let schema = try #require(url.components(separatedBy: "search_path%3D").last)
        let channel = try #require(try forger.query(
            "SELECT 'switchboard_' || substr(md5($1), 1, 16)", [PGParameter(type: PGType.text, text: schema)]).text(0, 0))
        let last = try #require(try admin.query("SELECT max(id) FROM event").text(0, 0).flatMap { Int64($0) })
        let mallory = #"{"id":999,"name":"Mallory","identities":[]}"#
        func forged(_ id: Int64, _ kind: String, _ session: SessionKey, person: String?) -> String {
            #"{"events":[{"id":\#(id),"kind":"\#(kind)","session":"\#(session.rawValue)","account":999,"detail":"{}"}],"#
                + #""sessions":{"\#(session.rawValue)":{"person":\#(person ?? "null")}}}"#
        }
        // The ids a real write would take next: a switch of this station to a person nobody chose, a sign-in, a sign-out.
        for (offset, payload) in [
            forged(last + 1, "switch", here, person: mallory), forged(last + 1, "signOut", here, person: nil),
            forged(last + 2, "signIn", there, person: mallory), forged(last + 3, "switch", there, person: mallory),
        ].enumerated() {
            let sent = try forger.query("SELECT pg_notify($1, $2)", [
                PGParameter(type: PGType.text, text: channel), PGParameter(type: PGType.text, text: payload),
            ])
            #expect(sent.rowCount == 1, "forged payload \(offset) sent")
        }

        // A real change after them: the listener hears it, and it is the only news.
        _ = try other.switchAccount(to: ids[1], session: there)
        try await waitUntil { statuses.all.contains { $0.session == there } }
        #expect(statuses.all.map(\.session) == [there], "\(statuses.all)")
        #expect(statuses.all.first?.current.id == ids[1])
        #expect(!accounts.all.contains { $0.accounts.contains(AccountID(999)) }, "\(accounts.all)")
        // A forged payload after it, naming ids already real, changes nothing either; the next real change still arrives.
        _ = try forger.query("SELECT pg_notify($1, $2)", [
            PGParameter(type: PGType.text, text: channel), PGParameter(type: PGType.text, text: forged(last + 2, "switch", here, person: mallory)),
        ])
        _ = try other.switchAccount(to: ids[1], session: here)
        try await waitUntil { statuses.all.count >= 2 }
        #expect(statuses.all.count == 2 && statuses.all.last?.session == here && statuses.all.last?.current.id == ids[1], "\(statuses.all)")
        #expect(statuses.all.allSatisfy { $0.current.id != AccountID(999) })
        withExtendedLifetime(subscriptions) {}
    }

    /// Waits for `condition` (a guard against a hang, not a figure).
    func waitUntil(_ condition: () -> Bool) async throws {
        try await TestBasics.waitUntil("the change feed", condition)
    }
}

/// A change feed of `database` publishing on a bus of its own, with the
/// status and accounts changes it published recorded.
struct FeedListener {
    let statuses = Recorder<UserStatusChanged>(), accounts = Recorder<AccountsChanged>()
    let subscriptions: [Subscription]
    let feed: ChangeFeed

    init(_ database: AppDatabase) throws {
        let bus = NotificationBus()
        let (statuses, accounts) = (statuses, accounts)
        subscriptions = [
            bus.subscribe(UserStatusChanged.self, on: .inline) { statuses.add($0) },
            bus.subscribe(AccountsChanged.self, on: .inline) { accounts.add($0) },
        ]
        feed = try ChangeFeed(database: database, bus: bus)
    }
}
