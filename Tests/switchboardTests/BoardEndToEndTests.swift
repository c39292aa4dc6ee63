import BoardUI
import Foundation
import TestBasics
import Testing
import TestSupport

/// The operator's board over a fleet of three kiosks, each in a terminal of
/// its own (tmux), sharing a store of this test's own on the test run's
/// PostgreSQL server.
@Suite("the operator's board end to end", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct BoardEndToEndTests {
    /// The board's row for `station`: the line of its table that names it.
    static func row(_ station: String, in screen: String) -> String? {
        screen.components(separatedBy: "\n").first { $0.contains("│  \(station) ") || $0.contains("│▸ \(station) ") }
    }

    @Test("the board shows three stations; a sign-in at one appears on it; the operator signs that station out from the board and it is Anonymous again; a killed kiosk turns offline after its missed heartbeats; the log tells what happened")
    func board() async throws {
        let url = try await offThePool { try TestPostgres.freshStore(suite: #fileID) }
        // Ada's approval at lab-2 shows within a second: `demo serve` there asks for polls a second apart.
        let demo = try await DemoServe()
        defer { demo.stop() }
        let labs = try ["lab-1", "lab-2", "lab-3"].map { (name: String) in
            try ChooserFixture(session: name + "/script", store: url, station: name, demo: name == "lab-2" ? demo : nil)
        }
        let ops = try ChooserFixture(session: "ops/script", store: url, station: "ops")
        defer { for fixture in labs + [ops] { fixture.remove() } }
        let pin = await TestIO(environment: ops.cliEnvironment, input: "2468\n").run(["pin", "set", "--operator"])
        #expect(pin.status == 0, "\(pin.stderr)")
        // Each acts in its terminal's session (lab-2/pts/N); a heartbeat a second, so offline is three seconds away.
        func terminal(_ fixture: ChooserFixture) -> [String: String] {
            fixture.environment.filter { $0.key != "SWITCHBOARD_SESSION" }.merging(["SWITCHBOARD_HEARTBEAT_SECONDS": "1", "TZ": "UTC"]) { $1 }
        }
        let kiosk = builtProduct("switchboard")
        try await withTmux(kiosk, arguments: ["kiosk"], environment: terminal(labs[0])) { one in
            try await withTmux(kiosk, arguments: ["kiosk"], environment: terminal(labs[1])) { two in
                try await withTmux(kiosk, arguments: ["kiosk"], environment: terminal(labs[2])) { three in
                    for tmux in [one, two, three] {
                        try await tmux.waitUntil("the kiosk is up", timeout: 30) { statusBar($0).contains("○ Anonymous") }
                    }
                    try await withTmux(kiosk, arguments: ["fleet"], environment: terminal(ops), width: 120, height: 30) { board in
                        // All three, idle, live.
                        try await board.waitUntil("three stations, idle", timeout: 30) { screen in
                            ["lab-1", "lab-2", "lab-3"].allSatisfy { Self.row($0, in: screen)?.contains("idle") == true }
                        }
                        #expect(statusBar(try await board.screen()).contains("⌂ ops/pts/"))

                        // Ada signs in at lab-2's kiosk: the board shows her there, in use.
                        let ada = try await labs[1].startDemoSignIn(in: two)
                        try await labs[1].approve(ada.code, as: "ada", at: ada.server)
                        try await two.waitFor(text: "Welcome, Ada Lovelace!", timeout: 20)
                        try await two.press("Enter")
                        try await board.waitUntil("Ada at lab-2", timeout: 20) { screen in
                            Self.row("lab-2", in: screen).map { $0.contains("Ada Lovelace") && $0.contains("in use") } == true
                        }

                        // The operator selects lab-2 and signs it out: the operator PIN first, then the question.
                        try await board.press("/", "l", "a", "b", "-", "2", "Enter")
                        try await board.waitUntil("lab-2 alone", timeout: 20) { Self.row("lab-1", in: $0) == nil && Self.row("lab-2", in: $0) != nil }
                        try await board.press("o")
                        try await board.waitFor(text: "Type the operator PIN", timeout: 20)
                        try await board.press("2", "4", "6", "8", "Enter")
                        try await board.waitFor(text: "Sign Ada Lovelace out of lab-2/pts/", timeout: 20)
                        try await board.press("y")
                        try await board.waitUntil("the board says it is done", timeout: 20) { screen in
                            screen.contains("Signed Ada Lovelace out of lab-2/pts/") || Self.row("lab-2", in: screen)?.contains("Anonymous") == true
                        }
                        try await two.waitUntil("lab-2 is Anonymous again", timeout: 20) { statusBar($0).contains("○ Anonymous") }
                        let after = try await board.waitUntil("the board shows it", timeout: 20) { screen in
                            Self.row("lab-2", in: screen).map { $0.contains("Anonymous") && $0.contains("idle") } == true
                                && screen.contains("signed out by the operator at ops/pts/")
                        }
                        #expect(after.contains("Ada Lovelace  signed in (demo:"), "the detail pane lists the sign-in too")

                        // lab-3 killed, with no chance to say it stops: offline once three heartbeats are missed.
                        try await board.press("Escape")
                        let pid = try await three.programID()
                        #expect(kill(pid, SIGKILL) == 0)
                        try await board.waitUntil("lab-3 offline", timeout: 30) { screen in
                            Self.row("lab-3", in: screen)?.contains("offline") == true
                                && Self.row("lab-1", in: screen)?.contains("idle") == true
                        }
                        try await board.press("q")
                        #expect(try await board.exitStatus(within: 20) == 0)
                    }
                }
            }
        }
        // What happened, read with `switchboard log`.
        let log = await TestIO(environment: ops.cliEnvironment).run(["log", "--station", "lab-2"])
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.stdout.components(separatedBy: "\n")
        #expect(lines.contains { $0.contains("Ada Lovelace  signed in (demo:") }, "\(log.stdout)")
        #expect(lines.contains { $0.contains("Ada Lovelace  signed out by the operator at ops/pts/") }, "\(log.stdout)")
    }
}
