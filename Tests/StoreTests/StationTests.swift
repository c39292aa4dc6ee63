import Foundation
import Testing
import TestSupport
@testable import Store

/// Stations report themselves: a row per station and terminal, a heartbeat,
/// the last key to the minute, offline after three missed heartbeats.
@Suite("stations reporting themselves")
struct StationTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func report(_ station: String, _ terminal: String = "tty1", seconds: Int = 30) -> StationReport {
        StationReport(
            station: station, terminal: terminal, session: "\(station)/\(terminal)", version: "0.1.0", startedAt: start,
            heartbeatAt: start, heartbeatSeconds: seconds)
    }

    @Test("a started station is listed; its heartbeat moves its time, its last key is kept to the minute, never finer", arguments: Engine.allCases)
    func heartbeat(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        try db.stationStarted(report("lab-3"))
        try db.stationStarted(report("lab-1", "pts/2"))
        #expect(try db.stations().map { "\($0.station) \($0.terminal)" } == ["lab-1 pts/2", "lab-3 tty1"])
        let key = start.addingTimeInterval(95.7)  // 1 min 35.7 s after the start
        #expect(try db.stationHeartbeat(station: "lab-3", terminal: "tty1", lastKeyAt: key, handOffRunning: true, at: start.addingTimeInterval(120)))
        let lab3 = try #require(try db.stations().last)
        #expect(lab3.heartbeatAt == start.addingTimeInterval(120))
        #expect(lab3.lastKeyAt == StationReport.minute(key))
        #expect(lab3.lastKeyAt!.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
        #expect(lab3.handOffRunning)
        #expect(lab3.startedAt == start && lab3.version == "0.1.0" && lab3.session == "lab-3/tty1")
        // A station whose row is gone hears so, and nothing is made.
        #expect(try !db.stationHeartbeat(station: "lab-9", terminal: "tty1", lastKeyAt: nil, handOffRunning: false, at: start))
        #expect(try db.stations().count == 2)
    }

    @Test("a station that missed three heartbeats is offline, one that stopped is offline at once; a restart brings it back", arguments: Engine.allCases)
    func offline(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        try db.stationStarted(report("lab-3", seconds: 2))
        let row = try #require(try db.stations().first)
        #expect(!row.isOffline(at: start.addingTimeInterval(6)))
        #expect(row.isOffline(at: start.addingTimeInterval(6.5)))
        try db.stationStopped(station: "lab-3", terminal: "tty1", at: start.addingTimeInterval(1))
        #expect(try db.stations().first?.isOffline(at: start.addingTimeInterval(1)) == true)
        var again = report("lab-3", seconds: 2)
        again.startedAt = start.addingTimeInterval(60)
        again.heartbeatAt = again.startedAt
        try db.stationStarted(again)
        let back = try #require(try db.stations().first)
        #expect(back.stoppedAt == nil && back.startedAt == again.startedAt && !back.isOffline(at: again.startedAt))
        #expect(try db.stations().count == 1)
    }

    @Test("another process sees the stations (a second connection, as another station opens the store)", arguments: Engine.allCases)
    func shared(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        try fixture.database.stationStarted(report("lab-3"))
        #expect(try fixture.reopen().stations().map(\.station) == ["lab-3"])
    }
}
