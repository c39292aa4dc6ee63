import Foundation
import Testing
import TestSupport
@testable import Store
import SwitchboardCore

/// The change log as another process sees it: a second `AppDatabase` on the
/// same file stands for the other process (its own connections, its own
/// record of what it wrote).
@Suite("reading other processes' changes from the event log")
struct ChangeLogTests {
    let here = SessionKey("pts/1")!, there = SessionKey("pts/2")!

    @Test("another writer's sign-in, switch, check and sign-out arrive in order, as the bus carries them; the reader's own writes do not")
    func othersInOrder() throws {
        let fixture = try Fixture()
        let other = try AppDatabase(path: fixture.database.path)
        let reader = try ChangeReader(fixture.database)
        #expect(try reader.changes(previous: { _ in .anonymous }).isEmpty, "nothing committed yet")

        // The reader's own process writes: not a change from elsewhere.
        let ada = try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: here)[0]
        #expect(try reader.changes(previous: { _ in .anonymous }).isEmpty)

        // The other process: a new account, a switch in this session, a revocation, a sign-out.
        let grace = try Sample.signIn([Sample.graceGitHub], into: other, session: there)[0]
        _ = try other.switchAccount(to: ada, session: here)
        _ = try other.recordCheck(Sample.graceGitHub.identity, state: .revoked)
        let changes = try reader.changes(previous: { _ in .anonymous })
        let statuses = changes.compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(changes.contains(.accounts(AccountsChanged(accounts: [grace]))))
        #expect(statuses.map(\.session) == [there, here, there], "sign-in, switch, then the revocation's sign-out")
        #expect(statuses.map(\.current.id) == [grace, ada, nil])
        #expect(statuses.allSatisfy { $0.reason == .external })
        #expect(statuses[2].previous.id == grace, "what the reader saw earlier in the same read")
        #expect(changes.contains(.identity(IdentityStateChanged(identity: Sample.graceGitHub.identity, previous: .authorized, current: .revoked))))
        #expect(try reader.changes(previous: { _ in .anonymous }).isEmpty, "read once")
        #expect(fixture.database.ownEvents.withLock { $0.isEmpty }, "passed own events are forgotten")
    }

    @Test("a disconnect is an accounts change; a reader started later sees only what came after it")
    func startsAtTheEnd() throws {
        let fixture = try Fixture()
        let other = try AppDatabase(path: fixture.database.path)
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: there)
        let reader = try ChangeReader(fixture.database)
        let before = reader.cursor
        _ = try other.disconnect(Sample.graceGitHub.identity, session: there)
        let changes = try reader.changes(previous: { _ in .anonymous })
        #expect(changes.contains(.accounts(AccountsChanged(accounts: [ids[1]]))), "\(changes)")
        #expect(!changes.contains { if case .status(let event) = $0 { event.current.id == ids[0] } else { false } }, "only what came after the reader")
        #expect(reader.cursor > before)
    }
}
