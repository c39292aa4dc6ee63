import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// `[store] keep_events`: old events go in small batches, but never one a
/// running change reader (of any process) has not read yet.
@Suite("pruning the event log", .onOwnThreads)
struct PruningTests {
    let long = Date(timeIntervalSince1970: 1_700_000_000)
    let cutoff = Date(timeIntervalSince1970: 1_800_000_000)

    func ids(_ database: AppDatabase) throws -> [Int64] {
        try rows(database, "SELECT id FROM event ORDER BY id").map { Int64($0[0])! }
    }

    @Test("events logged before the cutoff go, oldest first, at most a batch at a time; newer ones stay", arguments: Engine.allCases)
    func batches(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        for minute in 0..<7 { try db.recordEvent("switch", session: terminal1, account: nil, at: long.addingTimeInterval(Double(minute * 60))) }
        try db.recordEvent("switch", session: terminal1, account: nil, at: cutoff.addingTimeInterval(1))
        try db.recordEvent("switch", session: terminal1, account: nil, at: long)  // old, but after a newer one: stays until that one goes
        let all = try ids(db)
        #expect(try db.pruneEvents(loggedBefore: cutoff, limit: 3) == 3)
        #expect(try ids(db) == Array(all[3...]))
        #expect(try db.pruneEvents(loggedBefore: cutoff, limit: 3) == 3)
        #expect(try db.pruneEvents(loggedBefore: cutoff, limit: 3) == 1)
        #expect(try db.pruneEvents(loggedBefore: cutoff, limit: 3) == 0)
        #expect(try ids(db) == Array(all[7...]))
    }

    @Test("a running reader's unread events stay, however old, until it has read them; a reader that ended holds nothing")
    func readersKeepTheirs() throws {
        let fixture = try Fixture()
        let other = try AppDatabase(path: fixture.database.path)  // another process, writing and pruning
        for _ in 0..<3 { try other.recordEvent("switch", session: terminal1, account: nil, at: long) }
        let reader = try ChangeReader(fixture.database)
        for _ in 0..<4 { try other.recordEvent("switch", session: terminal2, account: nil, at: long) }
        #expect(try other.pruneEvents(loggedBefore: cutoff) == 3, "only what the reader had passed when it started")
        #expect(try ids(other).count == 4)
        _ = try reader.changes()
        #expect(reader.cursor == (try ids(other).last), "it read every unread event")
        #expect(try other.pruneEvents(loggedBefore: cutoff) == 4, "now read, they may go")
        for _ in 0..<2 { try other.recordEvent("switch", session: terminal2, account: nil, at: long) }
        let second = try ChangeReader(other)
        #expect(try other.pruneEvents(loggedBefore: cutoff) == 0, "the first reader has not read these")
        withExtendedLifetime(second) {}
        withExtendedLifetime(reader) {}
    }

    @Test("with readers gone, everything old goes; a store opened read-only is not pruned")
    func readersGone() throws {
        let fixture = try Fixture()
        let other = try AppDatabase(path: fixture.database.path)
        for _ in 0..<5 { try other.recordEvent("switch", session: terminal1, account: nil, at: long) }
        do {
            let reader = try ChangeReader(fixture.database)
            try other.recordEvent("switch", session: terminal1, account: nil, at: long)
            #expect(try other.pruneEvents(loggedBefore: cutoff) == 5)
            withExtendedLifetime(reader) {}
        }
        #expect(try other.pruneEvents(loggedBefore: cutoff) == 1)
        #expect(try other.eventCount() == 0)
    }
}
