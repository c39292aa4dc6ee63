import Foundation
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
        let database = try AppDatabase(testing: path), other = try AppDatabase(testing: path)
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

    /// Waits for `condition` (a guard against a hang, not a figure).
    func waitUntil(_ condition: () -> Bool) async throws {
        try await TestBasics.waitUntil("the change feed", condition)
    }
}
