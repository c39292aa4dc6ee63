import Testing
import TestBasics
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
