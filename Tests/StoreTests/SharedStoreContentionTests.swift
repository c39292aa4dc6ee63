import Foundation
import Synchronization
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("PIN tries counted across connections", .onOwnThreads)
struct PINContentionTests {
    @Test("twenty guessers, each on connections of its own, guessing at once: five free tries in total, not five each", arguments: Engine.allCases)
    func twentyGuessers(_ engine: Engine) async throws {
        let fixture = try Fixture(engine)
        let ada = try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: SessionKey("setup")!)[0]
        try fixture.database.setPIN("2468", for: .account(ada), proof: nil)
        // What twenty stations (or processes) have: each its own store and connections.
        let guessers = try (0..<20).map { _ in try fixture.reopen() }
        let now = Date()
        let outcomes = await onThreads(20) { index -> [String] in
            (0..<3).map { _ in
                do {
                    _ = try guessers[index].switchAccount(to: ada, session: SessionKey("guesser-\(index)")!, pin: .account("0000"), at: now)
                    return "switched"
                } catch StoreError.wrongPIN { return "wrong" } catch StoreError.pinLockedOut { return "locked" } catch {
                    return "\(error)"
                }
            }
        }.flatMap { $0 }
        #expect(outcomes.filter { $0 == "wrong" }.count == 5, "looked at: \(outcomes)")
        #expect(outcomes.filter { $0 == "locked" }.count == 55, "\(outcomes)")
        #expect(try fixture.database.pinAttempts(of: .account(ada), at: now).failures == 5)
        #expect(try fixture.database.active(in: SessionKey("guesser-0")!) == .anonymous)
    }
}

/// Runs `body` on `count` threads of their own (not the tests' shared
/// pool), released together; returns what each gave, by thread number.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let start = DispatchSemaphore(value: 0)
        let box = ResultsBox<T>()
        for index in 0..<count {
            Thread.detachNewThread {
                start.wait()
                let result = body(index)
                let all = box.results.withLock { results -> [T]? in
                    results[index] = result
                    return results.count == count ? (0..<count).map { results[$0]! } : nil
                }
                if let all { continuation.resume(returning: all) }
            }
        }
        for _ in 0..<count { start.signal() }
    }
}

/// What each thread of `onThreads` gave.
private final class ResultsBox<T: Sendable>: Sendable {
    let results = Mutex<[Int: T]>([:])
}

@Suite("Stations starting at once", .onOwnThreads)
struct ConcurrentStartTests {
    @Test("thirty stations opening an empty PostgreSQL database at once: it is migrated once, and every one works")
    func thirtyStations() async throws {
        let url = try TestPostgres.freshStore(suite: #fileID)
        let opened = await onThreads(30) { index -> Result<[String], StoreError> in
            do throws(StoreError) {
                let database = try AppDatabase(testing: .server(url))
                _ = try database.signOut(session: SessionKey("lab-\(index)/tty1")!)
                return .success(database.migrationsApplied)
            } catch {
                return .failure(error)
            }
        }
        let applied = opened.compactMap { try? $0.get() }
        #expect(applied.count == 30, "\(opened.filter { (try? $0.get()) == nil })")
        #expect(applied.flatMap { $0 } == StoreSchema.migrations, "one station migrated, all of it; the others found nothing to do")
        let rows = try rows(try AppDatabase(testing: .server(url)), "SELECT count(*) FROM switchboard_migration")
        #expect(rows == [["\(StoreSchema.migrations.count)"]])
    }
}
