import Foundation
import GRDB
import Testing
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("Several processes on one database")
struct ContentionTests {
    @Test("two processes switching the same session 1,000 times each: no errors, consistent end state, bystander untouched")
    func twoProcesses() async throws {
        let fixture = try Fixture()
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: .machine)
        let bystander = SessionKey("bystander")!
        _ = try db.switchAccount(to: ids[0], session: bystander)
        let eventsBefore = try db.eventCount()
        let usesBefore = try await db.writer.read { try Int.fetchOne($0, sql: "SELECT sum(useCount) FROM account")! }

        let bench = builtProduct("switchboard-bench")
        let arguments = ["store-stress", "--database", db.path, "--session", "shared",
                         "--accounts", ids.map { String($0.rawValue) }.joined(separator: ","), "--count", "1000"]
        async let first = Task.detached { try runProcess(bench, arguments) }.value
        async let second = Task.detached { try runProcess(bench, arguments) }.value
        for result in try await [first, second] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("errors: 0"), "\(result.stdout)")
        }

        #expect(try db.eventCount() == eventsBefore + 2000)
        let (integrity, uses, switches) = try await db.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT sum(useCount) FROM account"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM event WHERE kind = 'switch' AND session = 'shared'"))
        }
        #expect(integrity == "ok")
        #expect(uses == usesBefore + 2000)
        #expect(switches == 2000)
        // Both end on the same account (index 999 % 2), whoever finished last.
        #expect(try db.active(in: SessionKey("shared")!).id == ids[1])
        #expect(try db.active(in: bystander).id == ids[0])
    }
}
