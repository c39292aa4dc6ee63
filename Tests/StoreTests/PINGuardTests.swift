import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// Few rounds, so the store's tests stay fast.
private let rounds = 1_000

/// One way to act as an account: each takes its PIN or the operator PIN.
struct Door: Sendable, CustomTestStringConvertible {
    let name: String
    /// Acts as Ada in `terminal1` (where Grace is active) with `pin`.
    let act: @Sendable (AppDatabase, AccountID, PINProof?, Date) throws(StoreError) -> Void
    /// Whether what the door does was done, where the store shows it (handing out tokens changes nothing stored).
    let done: (@Sendable (AppDatabase, AccountID) throws -> Bool)?
    var testDescription: String { name }

    static let all: [Door] = [
        Door(name: "switch", act: { db, ada, pin, date throws(StoreError) in
            _ = try db.switchAccount(to: ada, session: terminal1, pin: pin, at: date)
        }, done: { db, ada in try db.active(in: terminal1).id == ada }),
        Door(name: "tokens where she is not active", act: { db, ada, pin, date throws(StoreError) in
            try db.admitTokenUse(of: ada, session: terminal1, pin: pin, at: date)
        }, done: nil),
        Door(name: "disconnect", act: { db, _, pin, date throws(StoreError) in
            _ = try db.disconnect(Sample.adaGitHub.identity, session: terminal1, pin: pin, at: date)
        }, done: { db, ada in try db.account(ada) == nil }),
    ]
}

@Suite("A PIN guards every way to act as its account", .onOwnThreads)
struct PINGuardTests {
    /// Ada (with PIN 2468) and Grace (active in terminal1); the operator PIN is 9753.
    private func setUp(_ engine: Engine) throws -> (Fixture, ada: AccountID, grace: AccountID) {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        try db.setPIN("2468", for: .account(ids[0]), proof: nil)
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        return (fixture, ids[0], ids[1])
    }

    @Test("without a PIN: refused, nothing changed", arguments: Engine.allCases, Door.all)
    func noPIN(_ engine: Engine, _ door: Door) throws {
        let (fixture, ada, _) = try setUp(engine)
        let before = try fixture.dump()
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) { try door.act(fixture.database, ada, nil, Date()) }
        #expect(try fixture.dump() == before)
    }

    @Test("a wrong PIN is refused and counted on the PIN it was offered as; nothing else changes", arguments: Engine.allCases, Door.all)
    func wrongPIN(_ engine: Engine, _ door: Door) throws {
        let (fixture, ada, _) = try setUp(engine)
        let db = fixture.database
        #expect(throws: StoreError.self) { try door.act(db, ada, .account("1111"), Date()) }
        #expect(try db.pinAttempts(of: .account(ada)).failures == 1)
        #expect(try db.pinAttempts(of: .operatorPIN).failures == 0)
        #expect(throws: StoreError.self) { try door.act(db, ada, .operatorPIN("1111"), Date()) }
        #expect(try db.pinAttempts(of: .operatorPIN).failures == 1)
        #expect(try db.active(in: terminal1).id != ada)
        #expect(try db.account(ada)?.identities.count == 1)
    }

    @Test("its own PIN, or the operator PIN, opens it", arguments: Engine.allCases, Door.all)
    func rightPIN(_ engine: Engine, _ door: Door) throws {
        for proof in [PINProof.account("2468"), .operatorPIN("9753")] {
            let (fixture, ada, _) = try setUp(engine)
            #expect(try door.done.map { try !$0(fixture.database, ada) } ?? true)
            try door.act(fixture.database, ada, proof, Date())
            #expect(try door.done.map { try $0(fixture.database, ada) } ?? true, "\(proof)")
        }
    }

    @Test("locked out after wrong tries: even the right PIN is not looked at until the wait is over", arguments: Engine.allCases, Door.all)
    func lockout(_ engine: Engine, _ door: Door) throws {
        let (fixture, ada, _) = try setUp(engine)
        let db = fixture.database, start = Date(timeIntervalSince1970: 2_000_000_000)
        for attempt in 0..<5 { _ = try? door.act(db, ada, .account("0000"), start.addingTimeInterval(Double(attempt))) }
        let before = try fixture.dump()
        do {
            try door.act(db, ada, .account("2468"), start.addingTimeInterval(10))
            Issue.record("the right PIN was taken during the lockout")
        } catch .pinLockedOut {
        } catch { Issue.record("\(error)") }
        do {
            try door.act(db, ada, nil, start.addingTimeInterval(10))
            Issue.record("no PIN was taken during the lockout")
        } catch .pinLockedOut {
        } catch { Issue.record("\(error)") }
        #expect(try fixture.dump() == before)
        try door.act(db, ada, .account("2468"), start.addingTimeInterval(40))
    }

    @Test("a PIN of the wrong form is refused before it is checked and costs no try", arguments: Engine.allCases, Door.all)
    func wrongForm(_ engine: Engine, _ door: Door) throws {
        let (fixture, ada, _) = try setUp(engine)
        let before = try fixture.dump()
        for text in ["", "12a4", "123", "1234567890123", " 2468", "2468\n", "٢٤٦٨"] {
            for proof in [PINProof.account(text), .operatorPIN(text)] {
                do {
                    try door.act(fixture.database, ada, proof, Date())
                    Issue.record("accepted \(String(reflecting: text))")
                } catch .badPIN(let message) {
                    #expect(!message.contains(text) || text.isEmpty, "the message shows the digits: \(message)")
                } catch { Issue.record("\(String(reflecting: text)): \(error)") }
            }
        }
        #expect(try fixture.dump() == before)
    }

    @Test("tokens: the session where she is active needs no PIN; a session where she is not does", arguments: Engine.allCases)
    func tokensWhereActive(_ engine: Engine) throws {
        let (fixture, ada, _) = try setUp(engine)
        let db = fixture.database
        _ = try db.switchAccount(to: ada, session: terminal2, pin: .account("2468"))
        try db.admitTokenUse(of: ada, session: terminal2)
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) { try db.admitTokenUse(of: ada, session: terminal1) }
    }

    @Test("a sign-in approved as a person with a PIN stores the tokens but makes nobody active; one as whoever is already active needs none", arguments: Engine.allCases)
    func signIn(_ engine: Engine) throws {
        let (fixture, ada, grace) = try setUp(engine)
        let db = fixture.database
        let tokens = TokenSet(accessToken: "fresh-access", refreshToken: "fresh-refresh", idToken: nil, tokenType: "Bearer", scope: nil, expiresAt: nil)
        let result = try db.signIn(Sample.adaGitHub, mode: .signIn, session: terminal2, tokens: tokens)
        guard case .needsPIN(let account, let refusal) = result else { Issue.record("\(result)"); return }
        #expect(account == ada && refusal == .pinRequired("Ada Lovelace's PIN (account \(ada))"))
        #expect(try db.active(in: terminal2) == .anonymous)
        #expect(try db.credential(for: Sample.adaGitHub.identity)?.accessToken == "fresh-access")
        // The switch with the PIN finishes it.
        #expect(try db.switchAccount(to: ada, session: terminal2, pin: .account("2468")).current.id == ada)
        // Signing in again as the active person is no new choice.
        guard case .completed = try db.signIn(Sample.adaGitHub, mode: .signIn, session: terminal2, tokens: tokens) else {
            Issue.record("a sign-in as the active person was refused"); return
        }
        // Where Grace is active it is a conflict, whose switch takes the PIN as any switch does.
        guard case .conflict(let conflict, _) = try db.signIn(Sample.adaGitHub, mode: .signIn, session: terminal1) else {
            Issue.record("no conflict where Grace is active"); return
        }
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) {
            try db.resolve(conflict, choosing: .switchAccount, identity: Sample.adaGitHub, session: terminal1)
        }
        #expect(try db.active(in: terminal1).id == grace)
    }

    @Test("disconnecting one of several identities of a protected account takes the PIN too; the tokens forgotten come back for revoking", arguments: Engine.allCases)
    func disconnectOneOfSeveral(_ engine: Engine) throws {
        let (fixture, ada, _) = try setUp(engine)
        let db = fixture.database
        let tokens = TokenSet(accessToken: "a", refreshToken: "r", idToken: nil, tokenType: "Bearer", scope: nil, expiresAt: nil)
        _ = try db.switchAccount(to: ada, session: terminal2, pin: .account("2468"))
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal2, tokens: tokens)
        #expect(try db.account(ada)?.identities.count == 2)
        // Active here is no licence to remove: the PIN is asked all the same.
        #expect(throws: StoreError.self) { try db.disconnect(Sample.adaGoogle.identity, session: terminal2) }
        let result = try db.disconnect(Sample.adaGoogle.identity, session: terminal2, pin: .account("2468"))
        #expect(result.forgotten?.refreshToken == "r" && !result.accountRemoved)
    }

    @Test("a merge into an account with a PIN signs out the other sessions that acted as the merged account: none becomes it without the PIN", arguments: Engine.allCases)
    func mergeIntoProtected(_ engine: Engine) throws {
        let (fixture, ada, grace) = try setUp(engine)
        let db = fixture.database
        // Alan (no PIN) is active in terminal 1; his identity, met where Ada is active, is a conflict she may merge.
        let alan = LinkedIdentity(identity: Identity(provider: "microsoft", subject: "alan"), displayName: "Alan Turing", email: nil)
        _ = try db.signOut(session: terminal1)
        guard case .completed(let alanAccount, _, _, _, _) = try db.signIn(alan, mode: .signIn, session: terminal1) else { Issue.record("Alan"); return }
        _ = try db.switchAccount(to: ada, session: terminal2, pin: .account("2468"))
        guard case .conflict(let conflict, _) = try db.signIn(alan, mode: .link, session: terminal2) else {
            Issue.record("no conflict"); return
        }
        #expect(try db.active(in: terminal1).id == alanAccount.id)
        _ = try db.resolve(conflict, choosing: .merge, identity: alan, session: terminal2)
        #expect(try db.active(in: terminal2).id == ada)
        #expect(try db.active(in: terminal1) == .anonymous, "terminal 1 acted as Alan; it does not become Ada without her PIN")
        // Merging away the account with the PIN stays refused, by the public merge too.
        let zoe = try Sample.signIn([LinkedIdentity(identity: Identity(provider: "demo", subject: "zoe"), displayName: "Zoë", email: nil)],
                                    into: db, session: SessionKey("setup")!)[0]
        #expect(throws: StoreError.mergeOfProtected(PINOwner.account(ada).description)) { try db.merge(ada, into: zoe, session: terminal1) }
        #expect(try db.account(grace) != nil)
    }
}
