import Foundation
import Postgres
import PostgresServer
import Store
import SwitchboardCore
import TestBasics
import Testing
import TestSupport

/// Two stations of a fleet, `lab-3` and `lab-4`, each the chooser in a
/// terminal of its own (tmux), sharing a PostgreSQL server of this test's
/// own, which it stops and starts again. What one station does, the other
/// sees; what the server's absence means, both say.
@Suite("a fleet of two stations end to end", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct FleetEndToEndTests {
    @Test("a sign-in at one station appears in the other's chooser; a PIN set at one is asked at the other; five wrong PINs over both lock it on both; the server stopping shows offline on both, and its return brings them back with what they missed")
    func twoStations() async throws {
        let cluster = try await offThePool { try ThrowawayCluster.start(in: scratchFolder) }
        defer { cluster.stop() }
        try cluster.createDatabase("fleet")
        let url = cluster.url(database: "fleet")
        // Ada's approval at lab-3 shows within a second: `demo serve` there asks for polls a second apart.
        let demo = try await DemoServe()
        defer { demo.stop() }
        let lab3 = try ChooserFixture(session: "lab-3/script", store: url, station: "lab-3", demo: demo)
        let lab4 = try ChooserFixture(session: "lab-4/script", store: url, station: "lab-4")
        defer {
            lab3.remove()
            lab4.remove()
        }
        // The choosers act in their terminals' sessions (lab-3/pts/N); scripts name theirs.
        func station(_ fixture: ChooserFixture) -> [String: String] { fixture.environment.filter { $0.key != "SWITCHBOARD_SESSION" } }
        func script(_ fixture: ChooserFixture, _ arguments: String..., input: String? = nil) async -> ProcessResult {
            await TestIO(environment: fixture.cliEnvironment, input: input).run(arguments)
        }
        try await withTmux(builtProduct("switchboard"), environment: station(lab3)) { three in
            try await withTmux(builtProduct("switchboard"), environment: station(lab4)) { four in
                for tmux in [three, four] { try await tmux.waitFor(text: "q quit") }
                #expect(statusBar(try await three.screen()).contains("⌂ lab-3/pts/"))
                #expect(statusBar(try await four.screen()).contains("⌂ lab-4/pts/"))

                // Ada signs in at lab-3's chooser; lab-4's open chooser lists her.
                let ada = try await lab3.startDemoSignIn(in: three)
                try await lab3.approve(ada.code, as: "ada", at: ada.server)
                try await three.waitFor(text: "Welcome, Ada Lovelace!", timeout: 20)
                try await three.press("Enter")
                try await four.waitUntil("Ada appears at lab-4", timeout: 20) { accountsPane($0).contains { $0.contains("Ada Lovelace") } }

                // A PIN set at lab-3 is asked at lab-4.
                let set = await script(lab3, "pin", "set", "Ada Lovelace", input: "2468\n")
                #expect(set.status == 0, "\(set.stderr)")
                try await four.waitUntil("the lock mark at lab-4") { accountsPane($0).contains { $0.contains("Ada Lovelace") && $0.contains("🔒") } }
                try await selectAccount("Ada Lovelace", in: four)
                try await four.press("Enter")
                try await four.waitFor(text: "Ada Lovelace has a PIN. Type it to switch.")

                // Five wrong PINs over both stations: two in lab-4's dialog, three from a script at lab-3.
                for _ in 1...2 {
                    try await four.press("0", "0", "0", "0", "Enter")
                    try await four.waitFor(text: "Wrong PIN. Try again.")
                }
                for attempt in 3...5 {
                    let wrong = await script(lab3, "switch", "Ada Lovelace", "--pin-stdin", input: "0000\n")
                    #expect(wrong.status == 8, "try \(attempt): \(wrong.stderr)")
                }
                // Locked on both: the right PIN is not looked at, here or there.
                let locked = await script(lab3, "switch", "Ada Lovelace", "--pin-stdin", input: "2468\n")
                #expect(locked.status == 9, "\(locked.stderr)")
                try await four.press("2", "4", "6", "8", "Enter")
                try await four.waitFor(text: "Too many wrong PINs: try again in")
                #expect(!statusBar(try await four.screen()).contains("● Ada Lovelace"))
                try await four.press("Escape")

                // At rest each station holds one connection: its listener's, which its reads and writes borrow.
                let admin = try PGConnection.connect(url)
                defer { admin.close() }
                for name in ["switchboard lab-3", "switchboard lab-4"] {
                    try await waitUntil("\(name) at one connection") {
                        let open = try admin.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [PGParameter(type: PGType.text, text: name)])
                        return open.text(0, 0) == "1"
                    }
                }

                // The server goes away: both say so, and refuse to pretend.
                try await offThePool { cluster.stopServer() }
                for tmux in [three, four] {
                    try await tmux.waitUntil("offline shown", timeout: 20) { statusBar($0).contains("⚠ Station offline — retrying") }
                }
                try await three.press("s")
                try await three.waitFor(text: "Station offline — retrying: nothing can be switched or signed in")
                #expect(statusBar(try await three.screen()).contains("● Ada Lovelace"), "still shown as it was, not signed out")

                // It comes back; a station that was away reads what was committed before it listened again.
                try await offThePool { try cluster.startServer() }
                _ = try await offThePool {
                    try Sample.signIn([Sample.graceGitHub], into: try AppDatabase(testing: .server(url)), session: SessionKey("lab-4/script")!)
                }
                for tmux in [three, four] {
                    let screen = try await tmux.waitUntil("back, with Grace", timeout: 45) { screen in
                        !statusBar(screen).contains("offline") && accountsPane(screen).contains { $0.contains("Grace Hopper") }
                    }
                    #expect(screen.contains("Ada Lovelace"))
                }
                try await three.press("q")
                try await four.press("q")
            }
        }
    }
}
