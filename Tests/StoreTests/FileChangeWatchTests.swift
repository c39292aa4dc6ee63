import Dispatch
import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store

@Suite("SQLite's change signal, read from inotify", .onOwnThreads)
struct FileChangeWatchTests {
    @Test("inotify's event buffer gives each mask and name, padded or not")
    func names() {
        var bytes: [UInt8] = []
        for (mask, name, padded) in [(UInt32(2), "switchboard.sqlite-wal", 32), (UInt32(0x4000), "", 0), (UInt32(8), "x", 16)] {
            var header = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: mask.littleEndian) { header.replaceSubrange(4..<8, with: $0) }
            withUnsafeBytes(of: UInt32(padded).littleEndian) { header.replaceSubrange(12..<16, with: $0) }
            bytes += header + Array(name.utf8) + [UInt8](repeating: 0, count: padded - name.utf8.count)
        }
        let events = FileChangeWatch.events(in: bytes[...])
        #expect(events.map(\.name) == ["switchboard.sqlite-wal", "", "x"])
        #expect(events.map(\.mask) == [2, 0x4000, 8])
        #expect(FileChangeWatch.split("/a/b/c.sqlite") == ("/a/b", "c.sqlite"))
        #expect(FileChangeWatch.split("c.sqlite") == (".", "c.sqlite"))
    }
}

@Suite("SQLite's change watch under a long transaction", .onOwnThreads)
struct FileChangeWatchPacingTests {
    @Test("another program's long transaction writes the -wal file thousands of times: the watch wakes at most once per spacing, and once after its commit")
    func pacedWakeUps() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let database = try AppDatabase(path: path)
        let wakes = Recorder<ContinuousClock.Instant>()
        let watch = try FileChangeWatch(database: path, queue: DispatchQueue(label: "test.watch")) { event in
            if event == .wake { wakes.add(.now) }
        }
        defer { watch.cancel() }
        // Plain SQL with a cache of a few pages, so that its one transaction spills to the -wal file again and again.
        let start = ContinuousClock.now
        let (writes, bodyDone) = try database.engine.writeUnannounced { db in
            try db.execute("PRAGMA cache_size = 4", [])
            var writes = 0
            for _ in 0..<60 {
                try db.execute("""
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
                    INSERT INTO event (at, session, kind, accountId, detail) SELECT $1, 'lab-' || i, 'switch', NULL, printf('%0500d', i) FROM n
                    """, [Date()])
                writes += 1
            }
            // The commit's own -wal write comes after this.
            return (writes, ContinuousClock.now)
        }
        try await waitUntil("a wake-up for the commit") { wakes.all.contains { $0 >= bodyDone } }
        let elapsed = ContinuousClock.now - start
        let most = Int(elapsed / .milliseconds(10)) + 2
        #expect(wakes.all.count <= most, "\(wakes.all.count) wake-ups in \(elapsed), at most \(most)")
        #expect(writes == 60)
    }
}
