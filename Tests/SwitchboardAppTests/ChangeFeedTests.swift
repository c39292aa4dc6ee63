import Foundation
import GRDB
import Store
import SwitchboardCore
import Testing
import TestBasics
import TestSupport
@testable import Services
@testable import ChooserApp

/// The feed with real inotify: a second `AppDatabase` on the file stands
/// for another process; its commits must reach this process's bus.
@Suite("the change feed across processes")
struct ChangeFeedTests {
    @Test("another writer's switch and sign-in reach the bus as external changes, the feed's own process's writes do not")
    func othersReachTheBus() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let database = try AppDatabase(path: path), other = try AppDatabase(path: path)
        let session = SessionKey("pts/7")!
        let bus = NotificationBus()
        let statuses = Recorder<UserStatusChanged>(), accounts = Recorder<AccountsChanged>()
        let subscriptions = [
            bus.subscribe(UserStatusChanged.self, on: .inline) { statuses.add($0) },
            bus.subscribe(AccountsChanged.self, on: .inline) { accounts.add($0) },
        ]
        let feed = try ChangeFeed(database: database, bus: bus)
        defer { feed.cancel() }

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

    @Test("inotify's event buffer gives each mask and name, padded or not")
    func names() {
        var bytes: [UInt8] = []
        for (mask, name, padded) in [(UInt32(2), "switchboard.sqlite-wal", 32), (UInt32(0x4000), "", 0), (UInt32(8), "x", 16)] {
            var header = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: mask.littleEndian) { header.replaceSubrange(4..<8, with: $0) }
            withUnsafeBytes(of: UInt32(padded).littleEndian) { header.replaceSubrange(12..<16, with: $0) }
            bytes += header + Array(name.utf8) + [UInt8](repeating: 0, count: padded - name.utf8.count)
        }
        let events = ChangeFeed.events(in: bytes[...])
        #expect(events.map(\.name) == ["switchboard.sqlite-wal", "", "x"])
        #expect(events.map(\.mask) == [2, 0x4000, 8])
        #expect(ChangeFeed.split("/a/b/c.sqlite") == ("/a/b", "c.sqlite"))
        #expect(ChangeFeed.split("c.sqlite") == (".", "c.sqlite"))
    }

    /// Waits for `condition` (a guard against a hang, not a figure).
    func waitUntil(_ condition: () -> Bool) async throws {
        try await TestBasics.waitUntil("the change feed", condition)
    }
}
