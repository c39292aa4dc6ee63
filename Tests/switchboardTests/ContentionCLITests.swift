import Foundation
import GRDB
import TestBasics
import Testing
import TestSupport
import Store
import SwitchboardCore

@Suite("two processes on one database")
struct ContentionCLITests {
    @Test("two `switchboard switch` processes at a time on one session, 12 each: no errors, every switch logged, file intact")
    func twoProcesses() async throws {
        let cli = CLI()
        let (ada, grace) = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        let eventsBefore = try database.eventCount()
        let count = 12
        // Two loops, each a task of its own: at any moment two processes
        // open the file and switch the same session. Without the busy
        // timeout, three each already fail.
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for first in [ada, grace] {
                group.addTask {
                    var failures: [String] = []
                    for index in 0..<count {
                        let target = index % 2 == 0 ? first : (first == ada ? grace : ada)
                        let result = try await cli.spawn("switch", String(target.rawValue), session: "shared")
                        if result.status != 0 { failures.append("switch \(index): \(result.status) \(result.stderr)") }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(try database.eventCount() == eventsBefore + 2 * count)
        let (integrity, switches) = try await DatabaseQueue(path: cli.path).read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM event WHERE kind = 'switch' AND session = 'shared'"))
        }
        #expect(integrity == "ok")
        #expect(switches == 2 * count)
    }
}
