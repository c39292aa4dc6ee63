import Foundation
import GRDB
import Synchronization
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("Several connections on one database", .onOwnThreads)
struct ContentionTests {
    @Test("two databases on one file switching the same session 250 times each at once: no errors, consistent end state, bystander untouched")
    func twoWriters() async throws {
        let fixture = try Fixture()
        let db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: .machine)
        let bystander = SessionKey("bystander")!
        _ = try db.switchAccount(to: ids[0], session: bystander)
        let eventsBefore = try db.eventCount()
        let usesBefore = try await db.writer.read { try Int.fetchOne($0, sql: "SELECT sum(useCount) FROM account")! }

        // What two processes would have: each its own `AppDatabase` (its own
        // GRDB pool, so its own SQLite connections and WAL locks) opened on
        // the file, each switching from a thread of its own. 250 each: without
        // the busy timeout, 25 each already fail many times over (SQLITE_BUSY).
        let shared = SessionKey("shared")!
        let switches = 250
        let errors = await onTwoThreads { _ -> [String] in
            let database: AppDatabase
            do { database = try AppDatabase(testing: db.path) } catch { return ["open: \(error)"] }
            var errors: [String] = []
            for index in 0..<switches {
                do {
                    _ = try database.switchAccount(to: ids[index % ids.count], session: shared)
                } catch {
                    errors.append("switch \(index): \(error)")
                }
            }
            return errors
        }
        #expect(errors.flatMap { $0 }.isEmpty, "\(errors)")

        #expect(try db.eventCount() == eventsBefore + 2 * switches)
        let (integrity, uses, switchEvents) = try await db.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT sum(useCount) FROM account"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM event WHERE kind = 'switch' AND session = 'shared'"))
        }
        #expect(integrity == "ok")
        #expect(uses == usesBefore + 2 * switches)
        #expect(switchEvents == 2 * switches)
        // Both end on the same account (the last index, 249, is odd: Grace), whoever finished last.
        #expect(try db.active(in: shared).id == ids[1])
        #expect(try db.active(in: bystander).id == ids[0])
    }
}

/// Runs `body` on two threads of their own (not the tests' cooperative
/// pool), released together; returns what each gave, by thread number.
private func onTwoThreads<T: Sendable>(_ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let results = ThreadResults<T>()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<2 {
            Thread.detachNewThread {
                start.wait()
                let result = body(index)
                let all = results.byThread.withLock { results -> [T]? in
                    results[index] = result
                    return results.count == 2 ? (0..<2).map { results[$0]! } : nil
                }
                if let all { continuation.resume(returning: all) }
            }
        }
        start.signal()
        start.signal()
    }
}

/// What each thread of `onTwoThreads` gave.
private final class ThreadResults<T: Sendable>: Sendable {
    let byThread = Mutex<[Int: T]>([:])
}
