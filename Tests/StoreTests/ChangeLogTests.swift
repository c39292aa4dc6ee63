import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// The change log as another process sees it: a second `AppDatabase` on the
/// same file stands for the other process (its own connections, its own
/// record of what it wrote).
@Suite("reading other processes' changes from the event log", .onOwnThreads)
struct ChangeLogTests {
    let here = SessionKey("pts/1")!, there = SessionKey("pts/2")!

    @Test("another writer's sign-in, switch, check and sign-out arrive in order, as the bus carries them; the reader's own writes do not", arguments: Engine.allCases)
    func othersInOrder(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let reader = try ChangeReader(fixture.database)
        #expect(try reader.changes().isEmpty, "nothing committed yet")

        // The reader's own process writes: not a change from elsewhere.
        let ada = try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: here)[0]
        #expect(try reader.changes().isEmpty)

        // The other process, one step per look: a new account, a switch in
        // this session, a revocation (and the sign-out it brings).
        func look() throws -> [StoreChange] { try reader.changes() }
        let grace = try Sample.signIn([Sample.graceGitHub], into: other, session: there)[0]
        let signedIn = try look()
        #expect(signedIn.first == .accounts(AccountsChanged(accounts: [grace])))
        #expect(signedIn.dropFirst().map { if case .status(let e) = $0 { e.current.id } else { nil } } == [Optional(grace)])
        _ = try other.switchAccount(to: ada, session: here)
        guard case .status(let switched) = try look().first else { Issue.record("no status change"); return }
        #expect(switched.session == here && switched.current.id == ada && switched.previous == .anonymous && switched.reason == .external)
        _ = try other.recordCheck(Sample.graceGitHub.identity, state: .revoked)
        let revoked = try look()
        #expect(revoked.contains(.identity(IdentityStateChanged(identity: Sample.graceGitHub.identity, previous: .authorized, current: .revoked))))
        let signedOut = revoked.compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(signedOut.map(\.session) == [there] && signedOut.first?.previous.id == grace && signedOut.first?.current == .anonymous)
        #expect(try look().isEmpty, "read once")

        // Two steps between looks: a session that ends where it began is no news.
        _ = try other.switchAccount(to: grace, session: here)
        _ = try other.switchAccount(to: ada, session: here)
        #expect(try look().isEmpty)
        #expect(fixture.database.ownEvents.withLock { $0 == [] }, "passed own events are forgotten")
        #expect(throws: StoreError.self, "one reader follows a database") { try ChangeReader(fixture.database) }
    }

    @Test("a session this process chose for, signed out by another, is news though the choice was not (an operator signing a kiosk out)", arguments: Engine.allCases)
    func ownChoiceSignedOutElsewhere(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let reader = try ChangeReader(fixture.database)
        try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: here)
        #expect(try reader.changes().isEmpty, "its own sign-in is not news here")
        _ = try other.signOut(session: here)
        let changes = try reader.changes()
        guard case .status(let signedOut) = changes.first, changes.count == 1 else { Issue.record("no status change: \(changes)"); return }
        #expect(signedOut.session == here && signedOut.current == .anonymous && signedOut.reason == .external)
        // Known again: another look finds nothing.
        #expect(try reader.changes().isEmpty)
    }

    @Test("a disconnect is an accounts change and, for its session, a status change; a reader started later sees only what came after it", arguments: Engine.allCases)
    func startsAtTheEnd(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: there)
        let reader = try ChangeReader(fixture.database, following: .only([there]))
        let before = reader.cursor
        _ = try other.disconnect(Sample.graceGitHub.identity, session: there)
        let changes = try reader.changes()
        #expect(changes.contains(.accounts(AccountsChanged(accounts: [ids[1]]))), "\(changes)")
        let statuses = changes.compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(statuses.map(\.session) == [there] && statuses.first?.current == .anonymous, "the disconnecting session acted as Grace")
        #expect(reader.cursor > before)
    }

    @Test("a merge tells every session that acted as the merged account, not only the one that merged", arguments: Engine.allCases)
    func mergeMovesOtherSessions(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let ids = try Sample.signIn([Sample.adaGitHub], into: other, session: there)
        _ = try Sample.signIn([Sample.adaGoogle], into: other, session: here)  // a second account, active here
        _ = try other.switchAccount(to: ids[0], session: there)
        let reader = try ChangeReader(fixture.database)
        // In `there`, Ada (GitHub) links Google, which belongs to the account active `here`: merge it in.
        guard case .conflict(let conflict, _) = try other.signIn(Sample.adaGoogle, mode: .link, session: there) else {
            Issue.record("expected a conflict"); return
        }
        _ = try other.resolve(conflict, choosing: .merge, identity: Sample.adaGoogle, session: there)
        let statuses = try reader.changes().compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(Set(statuses.map(\.session)) == [here, there], "\(statuses)")
        #expect(statuses.allSatisfy { $0.current.id == ids[0] })
    }

    @Test("a backlog longer than two pages is caught up at once: the accounts whose identities changed, and each session it names reports its final state; one back where it was reports nothing", arguments: Engine.allCases)
    func longBacklog(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub, Sample.graceMicrosoft], into: other, session: there)
        let third = SessionKey("lab")!
        _ = try other.switchAccount(to: ids[0], session: third)
        let reader = try ChangeReader(fixture.database, pageSize: 2)
        _ = try other.switchAccount(to: ids[1], session: third)
        _ = try other.switchAccount(to: ids[1], session: here)
        #expect(try reader.changes().count == 2, "a short backlog: replayed")
        // Many steps while the reader was not looking.
        for round in 0..<4 {
            _ = try other.switchAccount(to: ids[round % 3], session: here)
            _ = try other.switchAccount(to: ids[(round + 1) % 3], session: there)
        }
        _ = try other.switchAccount(to: ids[0], session: third)
        _ = try other.switchAccount(to: ids[1], session: third)  // where it was
        _ = try other.signIn(Sample.adaGoogle, mode: .link, session: there)  // a new identity for the account `there` acts as
        _ = try Sample.signIn([LinkedIdentity(identity: Identity(provider: "demo", subject: "mine"), displayName: "Mine", email: nil)],
                              into: fixture.database, session: SessionKey("mine")!)  // this process's own
        let changes = try reader.changes()
        #expect(changes.first == .accounts(AccountsChanged(accounts: [ids[1]])), "the accounts whose identities changed, not its own")
        let statuses = changes.compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(statuses.map(\.session) == [here, there], "\(statuses)")
        #expect(statuses.map(\.current.id) == [ids[0], ids[1]])
        #expect(statuses.map(\.previous.id) == [ids[1], nil], "what the reader knew: `there` had no event it read")
        #expect(try "\(reader.cursor)" == fixture.rows("SELECT max(id) FROM event")[0][0])
        #expect(try reader.changes().isEmpty, "read once")
        #expect(fixture.database.ownEvents.withLock { $0 == [] })
    }

    @Test("a reader following one session knows it from the start, reports only it, and keeps nothing for sessions acting as nobody or whose terminal ended", arguments: Engine.allCases)
    func followsFew(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let other = try fixture.reopen()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: other, session: here)
        let reader = try ChangeReader(fixture.database, following: .only([here]))
        #expect(reader.sessionsKnown == 1)
        _ = try other.switchAccount(to: ids[0], session: there)
        _ = try other.switchAccount(to: ids[0], session: here)
        let changes = try reader.changes().compactMap { if case .status(let event) = $0 { event } else { nil } }
        #expect(changes.map(\.session) == [here] && changes.first?.previous.id == ids[1] && changes.first?.current.id == ids[0])
        _ = try other.signOut(session: here)
        #expect(try reader.changes().count == 1)
        #expect(reader.sessionsKnown == 0, "nobody: nothing to keep")

        let all = try ChangeReader(other)
        _ = try fixture.database.switchAccount(to: ids[1], session: here)
        _ = try all.changes()
        #expect(all.sessionsKnown == 1)
        _ = try fixture.database.recordEvent("ended", session: here, account: ids[1])
        _ = try all.changes()
        #expect(all.sessionsKnown == 0, "its terminal ended")
    }
}

@Suite("what a write's notification carries", .onOwnThreads)
struct PushedChangeTests {
    let there = SessionKey("lab-4/tty1")!

    /// The payload a write of these events would carry, as the store now is.
    func payload(_ database: AppDatabase, after cursor: Int64) throws -> String {
        try #require(try database.engine.read { db in
            let events = try db.map("SELECT id, kind, session, accountId, detail FROM event WHERE id > $1 ORDER BY id", [cursor]) { row in
                ChangePayload.Event(id: try row[0], kind: try row[1], session: try row[2], account: try row[3], detail: try row[4])
            }
            return try ChangePayload.encode(events, db: db)
        })
    }

    @Test("changes that follow on from the cursor are taken as told; a gap, or a payload that cannot be read, reads the log instead")
    func followOnOrRead() throws {
        let fixture = try Fixture(.postgres)
        let other = try fixture.reopen()
        let reader = try ChangeReader(fixture.database)
        let start = reader.cursor
        let grace = try Sample.signIn([Sample.graceGitHub], into: other, session: there)[0]
        let told = try payload(other, after: start)
        let pushed = try reader.changes(pushed: told)
        #expect(pushed.contains(.accounts(AccountsChanged(accounts: [grace]))))
        #expect(pushed.contains { if case .status(let e) = $0 { e.session == there && e.current.id == grace } else { false } })
        #expect(reader.cursor > start)

        // Stale (already passed), garbled, or after a gap: the log is read from the cursor.
        _ = try other.signOut(session: there)
        let afterSignOut = try payload(other, after: reader.cursor)
        #expect(try reader.changes(pushed: told).count == 1, "a payload already passed reads the log, which has the sign-out")
        _ = try other.switchAccount(to: grace, session: there)
        #expect(try reader.changes(pushed: "{not json").count == 1)
        #expect(try reader.changes(pushed: afterSignOut).isEmpty, "passed: nothing new")
    }

    @Test("a payload that follows on from the cursor but names events the log does not hold as told is not taken: the log is read")
    func forgedPayload() throws {
        let fixture = try Fixture(.postgres)
        let other = try fixture.reopen()
        let reader = try ChangeReader(fixture.database)
        let start = reader.cursor
        let mallory = #"{"id":999,"name":"Mallory","identities":[]}"#
        let forged = #"{"events":[{"id":\#(start + 1),"kind":"switch","session":"\#(there.rawValue)","account":999,"detail":"{}"}],"#
            + #""sessions":{"\#(there.rawValue)":{"person":\#(mallory)}}}"#
        // Nothing in the log yet: nothing is news, and the cursor stays.
        #expect(try reader.changes(pushed: forged).isEmpty)
        #expect(reader.cursor == start)
        // The id is taken by a real write, other than the payload says: what the log holds is reported.
        let grace = try Sample.signIn([Sample.graceGitHub], into: other, session: there)[0]
        let changes = try reader.changes(pushed: forged)
        #expect(changes.contains { if case .status(let e) = $0 { e.session == there && e.current.id == grace } else { false } }, "\(changes)")
        #expect(!changes.contains { if case .status(let e) = $0 { e.current.id == AccountID(999) } else { false } })
        #expect(reader.cursor > start)
    }
}
