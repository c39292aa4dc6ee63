import Foundation
import Testing
import TestBasics
import TestSupport
import Store
import SwitchboardCore

private func objects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

/// `switchboard log` and `switchboard fleet`, in this process.
@Suite("log and fleet, in this process")
struct LogAndFleetCLITests {
    @Test("log: a readable line per event, oldest first, filtered by account, station and time; never a token or a PIN")
    func log() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        try database.setPIN("4821", for: .operatorPIN, proof: nil)
        let lab = SessionKey("lab-3/tty1")!
        _ = try Sample.signIn([Sample.adaGitHub], into: database, session: lab)
        let all = await cli.run("log")
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("setup  Ada Lovelace  signed in (github:") == true, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("PIN set (operator)") })
        #expect(lines.last?.contains("lab-3/tty1  Ada Lovelace  signed in") == true)
        for secret in ["SECRET", "4821", "gho_", "ghr_"] { #expect(!all.stdout.contains(secret)) }

        let grace = await cli.run("log", "--account", "grace hopper")
        #expect(grace.status == 0)
        #expect(!grace.stdout.isEmpty && grace.stdout.split(separator: "\n").allSatisfy { $0.contains("Grace Hopper") }, "\(grace.stdout)")
        let station = await cli.run("log", "--station", "lab-3", "--json")
        let rows = try objects(station.stdout)
        #expect(rows.count == 1)
        #expect(rows.first?["session"] as? String == "lab-3/tty1")
        #expect(rows.first?["kind"] as? String == "signIn")
        #expect((rows.first?["account"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
        #expect(rows.first?["text"] as? String == "signed in (\(Sample.adaGitHub.identity))")
        let future = await cli.run("log", "--since", "2999-01-01")
        #expect(future.status == 0 && future.stdout.isEmpty)
        let recent = await cli.run("log", "--since", "1h", "--limit", "2")
        #expect(recent.stdout.split(separator: "\n").count == 2)
        let bad = await cli.run("log", "--since", "yesterday-ish")
        #expect(bad.status != 0 && bad.stderr.contains("--since yesterday-ish"))
    }

    @Test("log after a disconnect: the person's history keeps their name, --account finds it by the old name, and a name nobody had is said")
    func historyOfARemovedAccount() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        let lab = SessionKey("lab-3/tty1")!
        _ = try Sample.signIn([Sample.graceGitHub], into: database, session: lab)
        _ = try database.disconnect(Sample.graceMicrosoft.identity, session: lab)
        _ = try database.disconnect(Sample.graceGitHub.identity, session: lab)
        #expect(try database.accounts().allSatisfy { $0.name != "Grace Hopper" }, "the account is gone")
        let grace = await cli.run("log", "--account", "grace hopper")
        #expect(grace.status == 0, "\(grace.stderr)")
        let lines = grace.stdout.split(separator: "\n")
        #expect(lines.count >= 3 && lines.allSatisfy { $0.contains("Grace Hopper") }, "\(grace.stdout)")
        #expect(lines.last?.hasSuffix("disconnected (\(Sample.graceGitHub.identity)), account removed") == true, "\(grace.stdout)")
        let nobody = await cli.run("log", "--account", "Nobody Atall")
        #expect(nobody.status == 2 && nobody.stderr.contains("no account matches \"Nobody Atall\""), "\(nobody)")
    }

    @Test("log --follow prints each new event as another program commits it")
    func follow() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let running = cli.start("log", "--follow", "--station", "lab-1")
        try await waitUntil("the follower is running", within: 20) { FileManager.default.fileExists(atPath: cli.path) }
        let other = try AppDatabase(testing: cli.path)
        // Written until the follower shows one (it may start watching after the first).
        var written = 0
        try await waitUntil("an event reaches the follower", within: 30) {
            if written < 20 {
                written += 1
                _ = try? Sample.signIn([Sample.adaGitHub], into: other, session: SessionKey("lab-1/tty\(written)")!)
            }
            return running.lines.contains { $0.contains("lab-1/tty") && $0.contains("Ada Lovelace  signed in") }
        }
        _ = try Sample.signIn([Sample.graceGitHub], into: other, session: SessionKey("lab-2/tty1")!)
        _ = try other.signOut(session: SessionKey("lab-1/tty1")!)
        #expect(await running.line(containing: "lab-1/tty1  Ada Lovelace  signed out") != nil)
        #expect(await running.stop() == 0)
        #expect(!running.lines.contains { $0.contains("lab-2") })
    }

    @Test("fleet --json: a row per station, who is there, idle time from the last key, in use, idle, hand-off and offline")
    func fleet() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        let now = Date()
        func station(_ name: String, heartbeat: Date, lastKey: Date?, handOff: Bool = false) throws {
            try database.stationStarted(StationReport(
                station: name, terminal: "tty1", session: "\(name)/tty1", version: "0.1.0", startedAt: now.addingTimeInterval(-3600),
                lastKeyAt: lastKey, heartbeatAt: heartbeat, heartbeatSeconds: 30, handOffRunning: handOff), instance: "here")
        }
        try station("lab-1", heartbeat: now, lastKey: now.addingTimeInterval(-300))
        try station("lab-2", heartbeat: now, lastKey: nil, handOff: true)
        try station("lab-3", heartbeat: now.addingTimeInterval(-91), lastKey: nil)
        try station("lab-4", heartbeat: now, lastKey: nil)
        _ = try Sample.signIn([Sample.adaGitHub], into: database, session: SessionKey("lab-1/tty1")!)
        let result = await cli.run("fleet", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try objects(result.stdout)
        #expect(rows.map { $0["station"] as? String } == ["lab-1", "lab-2", "lab-3", "lab-4"])
        #expect(rows.map { $0["state"] as? String } == ["in use", "running the hand-off", "offline", "idle"])
        #expect(rows[0]["active"] as? String == "Ada Lovelace")
        #expect(rows[3]["active"] is NSNull)
        let idle = try #require(rows[0]["idleSeconds"] as? Int)
        #expect(idle >= 300 && idle < 420)  // from the last key, kept to the minute
        #expect(rows[3]["idleSeconds"] as? Int ?? 0 >= 3600)
        let table = await cli.run("fleet")
        #expect(table.stdout.split(separator: "\n").first?.hasPrefix("STATION") == true)
        #expect(table.stdout.contains("lab-1") && table.stdout.contains("Ada Lovelace"))
        #expect(table.stdout.contains("  5m  ") || table.stdout.contains("  6m  "), "idle since the last key, in minutes")
        let other = CLI()
        let empty = await other.run("fleet")
        #expect(empty.stdout == "No station has reported to this store (\(other.path)). A running kiosk (switchboard kiosk) reports itself; "
            + "a fleet's store is given with --store or [store] url.\n", "\(empty.stdout)")
    }
}
