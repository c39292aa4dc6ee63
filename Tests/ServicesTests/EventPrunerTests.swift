import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
@testable import Services

/// `EventPruner`: `[store] keep_events` as the chooser applies it.
@Suite("pruning old events in the background")
struct EventPrunerTests {
    @Test("a pass deletes batch after batch until nothing older than keep_events is left, but keeps what a running watcher has not read")
    func pass() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let database = try AppDatabase(path: path), watched = try AppDatabase(path: path)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let session = SessionKey("lab")!
        for day in 0..<25 { try database.recordEvent("switch", session: session, account: nil, at: now.addingTimeInterval(Double(-30 - day) * 86_400)) }
        let watcher = try ChangeReader(watched)
        for day in 0..<3 { try database.recordEvent("switch", session: session, account: nil, at: now.addingTimeInterval(Double(-20 - day) * 86_400)) }
        try database.recordEvent("switch", session: session, account: nil, at: now)
        let pruner = EventPruner(database: database, keep: .seconds(10 * 86_400), batch: 4, pause: .milliseconds(1), now: { now })
        #expect(await pruner.prune() == 25, "what the watcher had read when it started")
        #expect(try database.eventCount() == 4)
        _ = try watcher.changes()
        #expect(await pruner.prune() == 3)
        #expect(try database.eventCount() == 1, "the newest stays")
        #expect(await pruner.prune() == 0)
    }
}
