import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// What an operator does from the board: the operator PIN checked in the
/// write's own transaction, and the operator's session in the log.
@Suite("operator writes from the board", .onOwnThreads)
struct OperatorWritesTests {
    let operatorSession = SessionKey(stored: "ops/pts/9")

    @Test("a station's session signed out by the operator is logged there, naming the operator; a wrong PIN changes nothing but its count", arguments: Engine.allCases)
    func signOut(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub], into: db, session: terminal1)
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        #expect(throws: StoreError.wrongPIN(PINOwner.operatorPIN.description, retryAt: nil)) {
            try db.signOut(session: terminal1, byOperatorAt: operatorSession, operatorPIN: "1111")
        }
        #expect(try db.active(in: terminal1).id == ids[0])
        #expect(try db.pinAttempts(of: .operatorPIN).failures == 1)
        let change = try db.signOut(session: terminal1, byOperatorAt: operatorSession, operatorPIN: "9753")
        #expect(change.previous.id == ids[0] && change.current == .anonymous && change.reason == .signedOut)
        #expect(try db.active(in: terminal1) == .anonymous)
        let last = try #require(try db.events(LogQuery(limit: 1)).last)
        #expect(last.kind == "signOut" && last.session == terminal1.rawValue && last.account == ids[0].rawValue)
        #expect(last.detail == ["operator": "ops/pts/9"])
        // A right PIN clears the operator PIN's count, as everywhere.
        #expect(try db.pinAttempts(of: .operatorPIN).failures == 0)
    }

    @Test("a reset of wrong PINs from the board is logged in the operator's session; with no operator PIN set, nothing happens", arguments: Engine.allCases)
    func reset(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        try db.setPIN("2468", for: .account(ids[0]), proof: nil)
        #expect(throws: StoreError.pinNotSet(PINOwner.operatorPIN.description)) {
            try db.resetPINAttempts(of: ids[0], operatorPIN: "9753", byOperatorAt: operatorSession)
        }
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        _ = try? db.switchAccount(to: ids[0], session: terminal2, pin: .account("1111"))
        #expect(try db.pinAttempts(of: .account(ids[0])).failures == 1)
        let before = try db.events(LogQuery(limit: 1)).last?.id ?? 0
        try db.resetPINAttempts(of: ids[0], operatorPIN: "9753", byOperatorAt: operatorSession)
        #expect(try db.pinAttempts(of: .account(ids[0])).failures == 0)
        let logged = try db.events(LogQuery(after: before, newest: false))
        #expect(logged.map(\.kind) == ["pin"])
        #expect(logged.first?.session == "ops/pts/9" && logged.first?.account == ids[0].rawValue)
        #expect(logged.first?.detail == ["change": "wrong tries cleared", "owner": PINOwner.account(ids[0]).key, "operator": "ops/pts/9"])
    }

    @Test("an identity disconnected by the operator takes the operator PIN even for an account with none, in the same transaction; it is logged in the operator's session; the account keeps its other identities; its own PIN is not asked, and its wrong tries are cleared", arguments: Engine.allCases)
    func disconnect(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub], into: db, session: terminal1)
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1)
        #expect(throws: StoreError.pinNotSet(PINOwner.operatorPIN.description)) {
            try db.disconnect(Sample.adaGitHub.identity, of: ids[0], byOperatorAt: operatorSession, operatorPIN: "9753")
        }
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        try db.setPIN("2468", for: .account(ids[0]), proof: nil)
        _ = try? db.switchAccount(to: ids[0], session: terminal2, pin: .account("1111"))
        #expect(try db.pinAttempts(of: .account(ids[0])).failures == 1)
        let eventsBefore = try db.events(LogQuery(limit: 100))
        #expect(throws: StoreError.wrongPIN(PINOwner.operatorPIN.description, retryAt: nil)) {
            try db.disconnect(Sample.adaGitHub.identity, of: ids[0], byOperatorAt: operatorSession, operatorPIN: "1111")
        }
        #expect(try db.pinAttempts(of: .operatorPIN).failures == 1)
        #expect(try db.account(ids[0])?.identities.count == 2, "a wrong operator PIN changes nothing but its own count")
        let eventsAfter = try db.events(LogQuery(limit: 100))
        #expect(eventsAfter.count == eventsBefore.count + 1 && Array(eventsAfter.prefix(eventsBefore.count)) == eventsBefore)
        let wrong = try #require(eventsAfter.last, "and its own event: the wrong operator PIN, in the operator's session, never the digits")
        #expect(wrong.kind == "wrongPIN" && wrong.session == "ops/pts/9" && wrong.account == nil && wrong.detail == ["given": "operator PIN"])
        let result = try db.disconnect(Sample.adaGitHub.identity, of: ids[0], byOperatorAt: operatorSession, operatorPIN: "9753")
        #expect(result.owner == ids[0] && !result.accountRemoved)
        #expect(try db.account(ids[0])?.identities.map(\.identity) == [Sample.adaGoogle.identity])
        #expect(try db.active(in: terminal1).id == ids[0], "the account, and who acts as it, stay")
        #expect(try db.pinAttempts(of: .account(ids[0])).failures == 0, "as when the operator PIN is given for it anywhere")
        let last = try #require(try db.events(LogQuery(limit: 1)).last)
        #expect(last.kind == "disconnect" && last.session == "ops/pts/9" && last.account == ids[0].rawValue)
        #expect(last.detail == ["identity": Sample.adaGitHub.identity.description, "accountRemoved": "false", "operator": "ops/pts/9"])
    }

    @Test("the operator disconnects an account's last identity: the account goes and every session acting as it is signed out; an identity no longer the chosen account's is not found", arguments: Engine.allCases)
    func disconnectLast(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        _ = try db.switchAccount(to: ids[0], session: terminal2)
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        // Chosen as Grace's, it is Ada's: nothing happens.
        #expect(throws: StoreError.identityNotFound(Sample.adaGitHub.identity.description)) {
            try db.disconnect(Sample.adaGitHub.identity, of: ids[1], byOperatorAt: operatorSession, operatorPIN: "9753")
        }
        #expect(try db.account(ids[0]) != nil)
        let result = try db.disconnect(Sample.adaGitHub.identity, of: ids[0], byOperatorAt: operatorSession, operatorPIN: "9753")
        #expect(result.accountRemoved && result.signedOut.map(\.session) == [terminal2])
        #expect(try db.account(ids[0]) == nil)
        #expect(try db.active(in: terminal2) == .anonymous)
        #expect(try db.active(in: terminal1).id == ids[1], "Grace, active where she was, is untouched")
    }
}
