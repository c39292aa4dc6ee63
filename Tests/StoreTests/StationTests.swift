import Dispatch
import Foundation
import Synchronization
import TestBasics
import Testing
import TestSupport
import Postgres
@testable import Store
import SwitchboardCore

/// Stations report themselves: a row per station and terminal, a heartbeat,
/// the last key to the minute, offline after three missed heartbeats.
@Suite("stations reporting themselves", .onOwnThreads)
struct StationTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func report(_ station: String, _ terminal: String = "tty1", seconds: Int = 30) -> StationReport {
        StationReport(
            station: station, terminal: terminal, session: "\(station)/\(terminal)", version: "0.1.0", startedAt: start,
            heartbeatAt: start, heartbeatSeconds: seconds)
    }

    @Test("the fleet's clock is the server's on a shared store and this machine's on a file, read as one moment", arguments: Engine.allCases)
    func fleetClock(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let before = Date()
        let server = try db.serverTime()
        let after = Date()
        // The test's server runs on this machine: its clock is this one's, to within the round trip.
        #expect(server >= before.addingTimeInterval(-1) && server <= after.addingTimeInterval(1), "\(before) \(server) \(after)")
        #expect(try db.serverTime() >= server, "it moves on")
    }

    @Test("a shared store keeps one connection open at rest: those opened while calls overlapped are closed when they end")
    func oneConnectionAtRest() async throws {
        let url = try TestPostgres.freshStore(suite: #fileID)
        let name = "switchboard pool-\(UInt32.random(in: 0...UInt32.max))"
        // Calls wait on the test's lock as long as it takes this machine to see them.
        let db = try AppDatabase(url: url, pinRounds: 1000, deadline: 60, applicationName: name)
        let counter = try AppDatabase(url: url, pinRounds: 1000, applicationName: "switchboard counter")
        @Sendable func open() throws -> Int {
            try counter.read { sql in try sql.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [name], as: Int64.self) }
                .map(Int.init) ?? -1
        }
        // Three calls at once, on threads of their own, each held on its connection by a lock the test holds.
        let holder = try PGConnection.connect(url)
        defer { holder.close() }
        try holder.execute("SELECT pg_advisory_lock(7007)")
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            Thread.detachNewThread {
                _ = try? db.read { sql in try sql.value("SELECT 1 FROM pg_advisory_xact_lock_shared(7007)", as: Int64.self) }
                done.leave()
            }
        }
        try await waitUntil("the calls overlapping, each on a connection of its own") { try open() == 3 }
        try holder.execute("SELECT pg_advisory_unlock(7007)")
        done.wait()
        // A closed connection's server process ends a moment after the close.
        try await waitUntil("one kept at rest, the others' server processes gone") { try open() == 1 }
    }

    @Test("a started station is listed; its heartbeat moves its time, its last key is kept to the minute, never finer", arguments: Engine.allCases)
    func heartbeat(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        try db.stationStarted(report("lab-3"), instance: "here")
        try db.stationStarted(report("lab-1", "pts/2"), instance: "here")
        #expect(try db.stations().map { "\($0.station) \($0.terminal)" } == ["lab-1 pts/2", "lab-3 tty1"])
        let key = start.addingTimeInterval(95.7)  // 1 min 35.7 s after the start
        #expect(try db.stationHeartbeat(station: "lab-3", terminal: "tty1", instance: "here", lastKeyAt: key, handOffRunning: true, at: start.addingTimeInterval(120)))
        let lab3 = try #require(try db.stations().last)
        #expect(lab3.heartbeatAt == start.addingTimeInterval(120))
        #expect(lab3.lastKeyAt == StationReport.minute(key))
        #expect(lab3.lastKeyAt!.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
        #expect(lab3.handOffRunning)
        #expect(lab3.startedAt == start && lab3.version == "0.1.0" && lab3.session == "lab-3/tty1")
        // A station whose row is gone hears so, and nothing is made.
        #expect(try !db.stationHeartbeat(station: "lab-9", terminal: "tty1", instance: "here", lastKeyAt: nil, handOffRunning: false, at: start))
        #expect(try db.stations().count == 2)
    }

    @Test("a station that missed three heartbeats is offline, one that stopped is offline at once; a restart brings it back", arguments: Engine.allCases)
    func offline(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        try db.stationStarted(report("lab-3", seconds: 2), instance: "here")
        let row = try #require(try db.stations().first)
        #expect(!row.isOffline(at: start.addingTimeInterval(6)))
        #expect(row.isOffline(at: start.addingTimeInterval(6.5)))
        try db.stationStopped(station: "lab-3", terminal: "tty1", instance: "here", at: start.addingTimeInterval(1))
        #expect(try db.stations().first?.isOffline(at: start.addingTimeInterval(1)) == true)
        var again = report("lab-3", seconds: 2)
        again.startedAt = start.addingTimeInterval(60)
        again.heartbeatAt = again.startedAt
        try db.stationStarted(again, instance: "here")
        let back = try #require(try db.stations().first)
        #expect(back.stoppedAt == nil && back.startedAt == again.startedAt && !back.isOffline(at: again.startedAt))
        #expect(try db.stations().count == 1)
    }

    @Test("one machine holds a station's name: a second is told while the first is heard from, and takes over once it stops or falls silent",
          arguments: Engine.allCases)
    func oneMachinePerName(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        #expect(try db.stationStarted(report("lab-3", seconds: 10), instance: "machine-a") == .started)
        var second = report("lab-3", seconds: 10)
        second.heartbeatAt = start.addingTimeInterval(5)
        let before = try fixture.dump()
        #expect(try db.stationStarted(second, instance: "machine-b") == .taken(heardAt: start))
        #expect(try fixture.dump() == before, "nothing written for the second machine")
        // Asked to, the refusal is logged in the station's session, so that the log and the board say so.
        #expect(try db.stationStarted(second, instance: "machine-b", logClash: true) == .taken(heardAt: start))
        #expect(try db.events(LogQuery(station: "lab-3")).map(\.kind) == ["nameTaken"])
        #expect(try !db.stationHeartbeat(station: "lab-3", terminal: "tty1", instance: "machine-b", lastKeyAt: nil, handOffRunning: false, at: second.heartbeatAt))
        let logged = try fixture.dump()
        try db.stationStopped(station: "lab-3", terminal: "tty1", instance: "machine-b", at: second.heartbeatAt)
        #expect(try fixture.dump() == logged, "the second machine's stop leaves the first's row alone")
        // The same machine again (a restart on the same boot) takes its row back at once.
        #expect(try db.stationStarted(second, instance: "machine-a") == .started)
        // Silent for three heartbeats: the second machine takes over.
        second.heartbeatAt = start.addingTimeInterval(5 + 31)
        #expect(try db.stationStarted(second, instance: "machine-b") == .started)
        #expect(try !db.stationHeartbeat(station: "lab-3", terminal: "tty1", instance: "machine-a", lastKeyAt: nil, handOffRunning: false, at: second.heartbeatAt),
                "the first, back, hears the row is another's now")
        // Or once it stopped.
        try db.stationStopped(station: "lab-3", terminal: "tty1", instance: "machine-b", at: second.heartbeatAt)
        #expect(try db.stationStarted(second, instance: "machine-a") == .started)
    }

    @Test("another process sees the stations (a second connection, as another station opens the store)", arguments: Engine.allCases)
    func shared(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        try fixture.database.stationStarted(report("lab-3"), instance: "here")
        #expect(try fixture.reopen().stations().map(\.station) == ["lab-3"])
    }
}

/// The event log read back for people (`switchboard log`).
@Suite("reading the event log", .onOwnThreads)
struct EventLogTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("events by station (its sessions, and those it reported), by account name or id, since a time, after a cursor, the newest N", arguments: Engine.allCases)
    func filters(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: SessionKey("lab-3/tty1")!)
        _ = try db.switchAccount(to: ids[0], session: SessionKey("lab-30/tty1")!)
        _ = try db.switchAccount(to: ids[1], session: SessionKey("pts/4")!)
        try db.stationStarted(StationReport(
            station: "bench", terminal: "pts/4", session: "pts/4", version: "1", startedAt: start, heartbeatAt: start, heartbeatSeconds: 30), instance: "here")
        let all = try db.events(LogQuery())
        #expect(all.map(\.kind) == ["signIn", "signIn", "switch", "switch"])
        #expect(all.map(\.id) == all.map(\.id).sorted())
        #expect(all.first?.accountName == "Ada Lovelace" && all.first?.detail["identity"] == Sample.adaGitHub.identity.description)
        #expect(try db.events(LogQuery(station: "lab-3")).map(\.session) == ["lab-3/tty1", "lab-3/tty1"])
        #expect(try db.events(LogQuery(station: "bench")).map(\.session) == ["pts/4"])
        #expect(try db.events(LogQuery(account: "GRACE hopper")).map(\.session) == ["lab-3/tty1", "pts/4"])
        #expect(try db.events(LogQuery(account: "\(ids[0].rawValue)")).count == 2)
        #expect(try db.events(LogQuery(account: "nobody")).isEmpty)
        #expect(try db.events(LogQuery(limit: 2)).map(\.id) == Array(all.map(\.id).suffix(2)))
        #expect(try db.events(LogQuery(after: all[1].id, limit: 1, newest: false)).map(\.id) == [all[2].id])
        #expect(try db.events(LogQuery(since: Date().addingTimeInterval(3600))).isEmpty)
        #expect(try db.events(LogQuery(since: Date().addingTimeInterval(-3600))).count == 4)
    }

    @Test("the fleet: each station with who its session acts as, Anonymous where nobody is", arguments: Engine.allCases)
    func fleet(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        for station in ["lab-1", "lab-2"] {
            try db.stationStarted(StationReport(
                station: station, terminal: "tty1", session: "\(station)/tty1", version: "1", startedAt: start, heartbeatAt: start,
                heartbeatSeconds: 30), instance: "here")
        }
        _ = try Sample.signIn([Sample.adaGitHub], into: db, session: SessionKey("lab-2/tty1")!)
        let fleet = try db.fleet()
        #expect(fleet.map(\.report.station) == ["lab-1", "lab-2"])
        #expect(fleet.map(\.accountName) == [nil, "Ada Lovelace"])
        #expect(fleet[0].since == nil && fleet[1].since != nil)
    }
}

/// Wrong PINs at a station: in the log (never the digits), and the station locked out in the fleet.
@Suite("wrong PINs at a station", .onOwnThreads)
struct WrongPINTests {
    @Test("a wrong PIN at a switch is logged with its session; once it locks the account, the station shows locked out until then", arguments: Engine.allCases)
    func lockedOut(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let now = Date()
        let lab = SessionKey("lab-1/tty1")!
        try db.stationStarted(StationReport(
            station: "lab-1", terminal: "tty1", session: lab.rawValue, version: "1", startedAt: now, heartbeatAt: now, heartbeatSeconds: 30), instance: "here")
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: SessionKey("setup")!)[0]
        try db.setPIN("2468", for: .account(ada), proof: nil)
        #expect(try db.fleet().first?.lockedUntil == nil)
        var locked: Date?
        for _ in 0..<10 where locked == nil {
            let result = Result { () throws(StoreError) in try db.switchAccount(to: ada, session: lab, pin: .account("1357")) }
            switch result {
            case .failure(.wrongPIN(_, let retryAt)): locked = retryAt
            default: Issue.record("a wrong PIN was not refused as wrong: \(result)")
            }
        }
        let until = try #require(locked)
        let wrong = try db.events(LogQuery(station: "lab-1")).filter { $0.kind == "wrongPIN" }
        #expect(!wrong.isEmpty && wrong.allSatisfy { $0.session == lab.rawValue && $0.account == ada.rawValue })
        #expect(wrong.last?.detail["lockedUntil"] != nil && wrong.last?.detail["given"] == "account PIN")
        #expect(try !fixture.dump().contains("1357"), "the digits are nowhere")
        let lockedUntil = try #require(try db.fleet().first?.lockedUntil)
        #expect(abs(lockedUntil.timeIntervalSince(until)) < 1)
        // A later choice in the session (a sign-out) ends what the station shows.
        _ = try db.signOut(session: lab)
        #expect(try db.fleet().first?.lockedUntil == nil)
    }
}

/// A fleet's heartbeats wake nobody: only the writes feeds read announce themselves.
@Suite("heartbeats and the change watch", .onOwnThreads)
struct HeartbeatWatchTests {
    @Test("on PostgreSQL a heartbeat sends no notification: only the writes around it are heard")
    func quiet() async throws {
        let fixture = try Fixture(.postgres), db = fixture.database
        let now = Date()
        try db.stationStarted(StationReport(
            station: "lab-1", terminal: "tty1", session: "lab-1/tty1", version: "1", startedAt: now, heartbeatAt: now, heartbeatSeconds: 30), instance: "here")
        let heard = Mutex<[ChangeWatchEvent]>([])
        let watcher = try fixture.reopen()
        let watch = try watcher.watchChanges(on: DispatchQueue(label: "test watch")) { event in heard.withLock { $0.append(event) } }
        defer { withExtendedLifetime(watcher) { watch.cancel() } }
        func pushed(_ kind: String) -> Bool {
            heard.withLock { $0.contains { if case .pushed(let payload) = $0 { payload.contains(kind) } else { false } } }
        }
        // Once the watcher listens (a marker it hears), three heartbeats, then another marker.
        try await waitUntil("the watcher listening") {
            try db.recordEvent("first", session: nil, account: nil)
            return pushed("first")
        }
        let before = heard.withLock { $0.count }
        for second in 1...3 {
            #expect(try db.stationHeartbeat(station: "lab-1", terminal: "tty1", instance: "here", lastKeyAt: nil, handOffRunning: false, at: now.addingTimeInterval(Double(second))))
        }
        try db.recordEvent("second", session: nil, account: nil)
        try await waitUntil("the second marker") { pushed("second") }
        let after = heard.withLock { Array($0[before...]) }
        // Only notifications of markers (late "first" ones included) came after: no plain wake-up.
        #expect(after.allSatisfy { if case .pushed = $0 { true } else { false } }, "\(after)")
    }
}
