import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// Each named write, failed at a step in its middle or end: the write throws
/// and the database is exactly as before.
@Suite("Every named write is atomic", .onOwnThreads)
struct AtomicityTests {
    /// A write, and where to break it (an SQL operation on a table).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let operation: String
        let table: String
        let write: @Sendable (AppDatabase, [AccountID]) throws -> Void
        var testDescription: String { "\(name), failing at \(operation) on \(table)" }
    }

    static let cases: [Case] = [
        Case(name: "sign in (new account)", operation: "INSERT", table: "identity") { db, _ in
            _ = try db.signIn(Sample.graceMicrosoft, mode: .signIn, session: terminal2)
        },
        Case(name: "sign in (new account)", operation: "INSERT", table: "event") { db, _ in
            _ = try db.signIn(Sample.graceMicrosoft, mode: .signIn, session: terminal2)
        },
        Case(name: "link", operation: "INSERT", table: "event") { db, _ in
            _ = try db.signIn(Sample.graceMicrosoft, mode: .link, session: terminal1)
        },
        Case(name: "switch", operation: "UPDATE", table: "account") { db, ids in
            _ = try db.switchAccount(to: ids[1], session: terminal1)
        },
        Case(name: "switch", operation: "INSERT", table: "event") { db, ids in
            _ = try db.switchAccount(to: ids[1], session: terminal1)
        },
        Case(name: "sign out", operation: "INSERT", table: "event") { db, _ in
            _ = try db.signOut(session: terminal1)
        },
        Case(name: "merge", operation: "DELETE", table: "account") { db, ids in
            _ = try db.merge(ids[2], into: ids[0], session: terminal1)
        },
        Case(name: "merge", operation: "INSERT", table: "event") { db, ids in
            _ = try db.merge(ids[2], into: ids[0], session: terminal1)
        },
        Case(name: "disconnect (last identity)", operation: "DELETE", table: "account") { db, _ in
            _ = try db.disconnect(Sample.graceGitHub.identity, session: terminal1)
        },
        Case(name: "disconnect", operation: "INSERT", table: "event") { db, _ in
            _ = try db.disconnect(Sample.adaGoogle.identity, session: terminal1)
        },
        Case(name: "record event", operation: "INSERT", table: "event") { db, ids in
            try db.recordEvent("note", session: terminal1, account: ids[0])
        },
        Case(name: "resolve a conflict by merging", operation: "DELETE", table: "account") { db, _ in
            // Ada (github, google) is active in terminal 1; the lookalike's
            // gitlab identity turns up: mergeable, and asking writes nothing.
            let lookalike = LinkedIdentity(identity: Identity(provider: "gitlab", subject: "42"))
            guard case .conflict(let conflict, _) = try db.signIn(lookalike, mode: .link, session: terminal1) else {
                throw StoreError.accountNotFound("no conflict")
            }
            _ = try db.resolve(conflict, choosing: .merge, identity: lookalike, session: terminal1)
        },
        Case(name: "credential check that signs sessions out", operation: "INSERT", table: "event") { db, _ in
            _ = try db.recordCheck(Sample.graceGitHub.identity, state: .revoked)
        },
    ]

    @Test(arguments: Engine.allCases, cases)
    func failureChangesNothing(_ engine: Engine, _ testCase: Case) throws {
        let fixture = try Fixture(engine)
        let db = fixture.database
        // Ada (github + google), Grace (github), and Ada's lookalike (gitlab).
        var ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        _ = try db.switchAccount(to: ids[0], session: terminal1)
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1)
        ids += try Sample.signIn([LinkedIdentity(identity: Identity(provider: "gitlab", subject: "42"))], into: db, session: terminal2)
        _ = try db.switchAccount(to: ids[0], session: terminal1)
        try db.setFavourite("codebreakers", starred: true, for: ids[2])

        let before = try fixture.dump()
        try fixture.failNext(testCase.operation, on: testCase.table)
        #expect(throws: StoreError.self) { try testCase.write(db, ids) }
        try fixture.clearFailure()
        #expect(try fixture.dump() == before)
        // And the same write succeeds once the failure is gone.
        try testCase.write(db, ids)
        #expect(try fixture.dump() != before)
    }
}
