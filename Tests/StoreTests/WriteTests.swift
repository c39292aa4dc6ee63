import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("Named writes", .onOwnThreads)
struct WriteTests {
    @Test("sign in: a new account (isNew), then the same identity again switches to it", arguments: Engine.allCases)
    func signInNewThenKnown(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        guard case .completed(let ada, true, false, let change, _) = try db.signIn(Sample.adaGitHub, mode: .signIn, session: terminal1) else {
            Issue.record("expected a new account")
            return
        }
        #expect(ada.name == "Ada Lovelace")
        #expect(change.previous == .anonymous && change.current.id == ada.id && change.reason == .signedIn(isNew: true))
        _ = try db.signOut(session: terminal1)
        guard case .completed(let again, false, false, _, _) = try db.signIn(Sample.adaGitHub, mode: .signIn, session: terminal1) else {
            Issue.record("expected the known account")
            return
        }
        #expect(again.id == ada.id)
        #expect(try db.accounts().count == 1)
    }

    @Test("an identity's login is kept, and a sign-in again brings the provider's latest", arguments: Engine.allCases)
    func login(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        var octo = Sample.adaGitHub
        octo.login = "octocat"
        try Sample.signIn([octo], into: db, session: terminal1)
        #expect(try db.accounts().first?.identities.first?.login == "octocat")
        octo.login = "octo-renamed"
        _ = try db.signIn(octo, mode: .signIn, session: terminal1)
        #expect(try db.active(in: terminal1).account?.identities.first?.login == "octo-renamed")
    }

    @Test("a rejected access token is marked run out only while it is the one stored", arguments: Engine.allCases)
    func expireAccessToken(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        try Sample.signIn([Sample.adaGitHub], into: db, session: terminal1)
        let ada = Sample.adaGitHub.identity
        try db.saveCredential(TokenSet(accessToken: "a1", refreshToken: "r1"), for: ada)
        #expect(try db.expireAccessToken("other", of: ada) == false)
        #expect(try db.credential(for: ada)?.expiresAt == nil)
        let now = Date()
        #expect(try db.expireAccessToken("a1", of: ada, at: now))
        let expiry = try #require(try db.credential(for: ada)?.expiresAt)
        #expect(abs(expiry.secondsSince1970 - now.timeIntervalSince1970) < 0.01)
        #expect(try db.expireAccessToken("a1", of: Sample.graceGitHub.identity) == false)
    }

    @Test("link attaches to the active account; a matching verified email is only a hint", arguments: Engine.allCases)
    func linkAndHint(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let (ada, grace) = try { let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1); return (ids[0], ids[1]) }()
        _ = try db.switchAccount(to: ada, session: terminal1)
        guard case .completed(let linked, false, true, _, let hints) = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1) else {
            Issue.record("expected a link")
            return
        }
        #expect(linked.id == ada && linked.providers == ["github", "google"])
        #expect(hints == [])  // the email is Ada's own
        // A newcomer with Ada's verified email: a new account, with a hint.
        let lookalike = LinkedIdentity(identity: Identity(provider: "gitlab", subject: "9"), email: "ADA@example.org", emailVerified: true)
        guard case .completed(let newcomer, true, false, _, let matches) = try db.signIn(lookalike, mode: .signIn, session: terminal2) else {
            Issue.record("expected a new account")
            return
        }
        #expect(matches == [ada])
        #expect(newcomer.id != ada && newcomer.id != grace)
    }

    @Test("conflict: nothing changes until answered; cancel, switch and merge do what they say", arguments: Engine.allCases)
    func conflictChoices(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGoogle, Sample.graceGitHub], into: db, session: terminal1)
        let (ada, grace) = (ids[0], ids[1])
        try db.setFavourite("sky-at-night", starred: true, for: ada)
        _ = try db.switchAccount(to: grace, session: terminal1)
        _ = try db.switchAccount(to: ada, session: terminal2)
        let before = try fixture.dump()
        guard case .conflict(let conflict, _) = try db.signIn(Sample.adaGoogle, mode: .signIn, session: terminal1) else {
            Issue.record("expected a conflict")
            return
        }
        #expect(try fixture.dump() == before)
        #expect(conflict.canMerge && conflict.owner == ada && conflict.active == grace)

        #expect(try db.resolve(conflict, choosing: .cancel, identity: Sample.adaGoogle, session: terminal1) == nil)
        #expect(try db.active(in: terminal1).id == grace)

        let merged = try db.resolve(conflict, choosing: .merge, identity: Sample.adaGoogle, session: terminal1)
        #expect(merged?.current.id == grace && merged?.reason == .merged)
        let accounts = try db.accounts()
        #expect(accounts.map(\.id) == [grace])
        #expect(accounts[0].providers == ["github", "google"])
        #expect(try db.favourites(of: grace) == ["sky-at-night"])
        #expect(try db.active(in: terminal2).id == grace, "a session that acted as the merged account follows it")

        // The conflict is gone now; answering it again is refused.
        #expect(throws: StoreError.conflictChanged(conflict.identity)) {
            try db.resolve(conflict, choosing: .switchAccount, identity: Sample.adaGoogle, session: terminal1)
        }
    }

    @Test("conflict between accounts with identities at one provider: merge keeps both, by the rule a link follows", arguments: Engine.allCases)
    func conflictSharingAProvider(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        guard case .conflict(let conflict, _) = try db.signIn(Sample.adaGitHub, mode: .link, session: terminal1) else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflict.sharedProviders == ["github"] && conflict.choices == [.merge, .switchAccount, .cancel])
        let merged = try db.resolve(conflict, choosing: .merge, identity: Sample.adaGitHub, session: terminal1)
        #expect(merged?.current.id == ids[1])
        let accounts = try db.accounts()
        #expect(accounts.map(\.id) == [ids[1]])
        #expect(Set(accounts[0].identities.map(\.identity)) == [Sample.adaGitHub.identity, Sample.graceGitHub.identity])
    }

    @Test("a second identity at one provider links to the active account, and merge() of two such accounts goes through", arguments: Engine.allCases)
    func severalAtOneProvider(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let grace = try Sample.signIn([Sample.graceGitHub], into: db, session: terminal1)[0]
        let work = LinkedIdentity(identity: Identity(provider: "github", subject: "2048"), email: "grace@work.example", login: "grace-work")
        guard case .completed(let linked, false, true, _, _) = try db.signIn(work, mode: .link, session: terminal1) else {
            Issue.record("expected a link")
            return
        }
        #expect(linked.id == grace && linked.identities.filter { $0.provider == "github" }.count == 2)
        // Another account with a GitHub identity merges into Grace's: three GitHub identities, one account.
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: terminal2)[0]
        let change = try db.merge(ada, into: grace, session: terminal1)
        #expect(change.current.account?.identities.filter { $0.provider == "github" }.count == 3)
        #expect(try db.accounts().map(\.id) == [grace])
    }

    @Test("a session's switch leaves other sessions alone; a session that chose nothing is Anonymous, whatever the machine default is", arguments: Engine.allCases)
    func sessionsAreIndependent(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: .machine)
        _ = try db.switchAccount(to: ids[0], session: terminal1)
        _ = try db.switchAccount(to: ids[1], session: terminal2)
        _ = try db.switchAccount(to: ids[0], session: terminal1)
        #expect(try db.active(in: terminal2).id == ids[1])
        #expect(try db.active(in: .machine).id == ids[1], "the machine default: the last sign-in in the machine session")
        #expect(try db.active(in: SessionKey("pts/9")!) == .anonymous, "a new session does not act as the machine default")
    }

    @Test("disconnect forgets credentials and provider data; the last identity takes its account along", arguments: Engine.allCases)
    func disconnect(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: terminal1)[0]
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1)
        try db.setFavourite("codebreakers", starred: true, for: ada)
        try db.saveCredential(TokenSet(accessToken: "secret-token"), for: Sample.adaGoogle.identity)
        _ = try db.engine.write { db in
            try db.execute(
                "INSERT INTO providerData (provider, subject, key, value, fetchedAt) VALUES ('google', $1, 'calendar', $2, $3)",
                [Sample.adaGoogle.identity.subject, Data([0]), Date()])
        }
        let first = try db.disconnect(Sample.adaGoogle.identity, session: terminal1)
        #expect(!first.accountRemoved && first.change.current.account?.providers == ["github"])
        let leftovers = try fixture.count("SELECT (SELECT count(*) FROM credential) + (SELECT count(*) FROM providerData)")
        #expect(leftovers == 0)
        _ = try db.switchAccount(to: ada, session: terminal2)
        let last = try db.disconnect(Sample.adaGitHub.identity, session: terminal1)
        #expect(last.accountRemoved && last.change.current == .anonymous)
        #expect(last.signedOut.map(\.session) == [terminal2], "the other terminal is told, not silently emptied")
        #expect(last.signedOut.first?.reason == .disconnected(Sample.adaGitHub.identity))
        #expect(try db.accounts().isEmpty)
        #expect(try db.favourites(of: ada).isEmpty)
        #expect(throws: StoreError.identityNotFound(Sample.adaGitHub.identity.description)) {
            try db.disconnect(Sample.adaGitHub.identity, session: terminal1)
        }
    }

    @Test("accounts come most recently used first", arguments: Engine.allCases)
    func ordering(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        let later = Date().addingTimeInterval(60)
        _ = try db.switchAccount(to: ids[0], session: terminal1, at: later)
        #expect(try db.accounts().map(\.id) == [ids[0], ids[1]])
        _ = try db.switchAccount(to: ids[1], session: terminal1, at: later.addingTimeInterval(1))
        #expect(try db.accounts().map(\.id) == [ids[1], ids[0]])
    }

    @Test("the event log is append-only: no event changes, and only the oldest may go (pruning), oldest first", arguments: Engine.allCases)
    func appendOnly(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: fixture.database, session: terminal1)
        let ids = try fixture.rows("SELECT id FROM event ORDER BY id").map { $0[0] }
        #expect(ids.count == 2)
        #expect(throws: (any Error).self) { try fixture.execute("UPDATE event SET kind = 'x'") }
        #expect(throws: (any Error).self, "not the oldest") { try fixture.execute("DELETE FROM event WHERE id = \(ids[1])") }
        #expect(try fixture.database.eventCount() == 2)
        try fixture.execute("DELETE FROM event WHERE id = \(ids[0])")
        #expect(try fixture.database.eventCount() == 1)
    }
}
