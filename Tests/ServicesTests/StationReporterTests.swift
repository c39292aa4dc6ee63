import Foundation
import Store
import Testing
import TestBasics
import TestSupport
@testable import Services

/// `StationReporter`: a running kiosk's row, its heartbeats and its stop.
@Suite("a station reporting itself")
struct StationReporterTests {
    @Test("it reports at start, beats with its last key to the minute and its hand-off, and is offline once stopped")
    func reports() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let database = try AppDatabase(path: folder.file("switchboard.sqlite"))
        let reporter = StationReporter(
            database: database, station: "lab-3", terminal: "tty1", session: "tty1", version: "9.9.9", interval: .seconds(1))
        reporter.start()
        try await waitUntil("the station's row") { try database.stations().count == 1 }
        let first = try #require(try database.stations().first)
        #expect(first.station == "lab-3" && first.terminal == "tty1" && first.version == "9.9.9" && first.heartbeatSeconds == 1)
        #expect(first.lastKeyAt == nil && !first.handOffRunning)
        let key = Date(timeIntervalSince1970: 1_800_000_047.25)
        reporter.keyPressed(at: key)
        try await waitUntil("a heartbeat carrying the last key") { try database.stations().first?.lastKeyAt != nil }
        #expect(try database.stations().first?.lastKeyAt == Date(timeIntervalSince1970: 1_800_000_000))
        let beat = try #require(try database.stations().first?.heartbeatAt)
        #expect(beat > first.heartbeatAt)
        reporter.handOff(running: true)
        try await waitUntil("the hand-off, said at once") { try database.stations().first?.handOffRunning == true }
        reporter.stop()
        let stopped = try #require(try database.stations().first)
        #expect(stopped.stoppedAt != nil && stopped.isOffline(at: Date()))
    }

    @Test("a machine whose clock is a minute ahead writes the fleet's times, not its own, and hears how far off it is; within 5 s it hears nothing")
    func clockSkew() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let database = try AppDatabase(path: folder.file("switchboard.sqlite"))
        let skews = Recorder<Double?>()
        let ahead = StationReporter(
            database: database, station: "lab-3", terminal: "tty1", session: "tty1", version: "9.9.9", interval: .seconds(1),
            now: { Date().addingTimeInterval(60) })
        ahead.onClockSkew { skews.add($0) }
        ahead.start()
        try await waitUntil("the station's row") { try database.stations().count == 1 }
        let row = try #require(try database.stations().first)
        // Far from the minute ahead, however long this machine took to read the row back.
        #expect(abs(row.heartbeatAt.timeIntervalSinceNow) < 30, "the fleet's time, not the machine's minute ahead")
        #expect(abs(row.startedAt.timeIntervalSinceNow) < 30)
        let skew = try #require(skews.all.first ?? nil)
        #expect(abs(skew - 60) < 2, "\(skew)")
        // Its last key, pressed by its own clock, is written by the fleet's.
        ahead.keyPressed(at: Date().addingTimeInterval(60))
        try await waitUntil("a heartbeat carrying the last key") { try database.stations().first?.lastKeyAt != nil }
        let key = try #require(try database.stations().first?.lastKeyAt)
        #expect(abs(key.timeIntervalSinceNow) < 61, "to the minute, by the fleet's clock")
        // The row says how far off it is, for the board.
        let off = try #require(try database.stations().first?.clockOff())
        #expect(abs(off - 60) < 2, "\(off)")
        ahead.stop()

        let right = StationReporter(
            database: database, station: "lab-4", terminal: "tty1", session: "tty1", version: "9.9.9", interval: .seconds(1),
            now: { Date().addingTimeInterval(2) })
        let near = Recorder<Double?>()
        right.onClockSkew { near.add($0) }
        right.start()
        try await waitUntil("lab-4's row") { try database.stations().count == 2 }
        #expect(near.all.allSatisfy { $0 == nil }, "2 s off is within the tolerance")
        try await waitUntil("lab-4's heartbeat") { try database.stations().last?.clockSkew != nil }
        #expect(try database.stations().last?.clockOff() == nil, "nor does the board say it")
        right.stop()
    }
}
