import Foundation
import Store
import SwitchboardCore
import Testing
import TestBasics
import TestSupport

/// `switchboard kiosk` in a real terminal: nothing a person types quits
/// it, and left alone it goes back to Anonymous.
@Suite("kiosk end to end in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct KioskEndToEndTests {
    @Test("q, Ctrl-C and Ctrl-Z leave it running; idle, a countdown shows and the session is Anonymous for other programs too")
    func lockedAndIdle() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        try "[kiosk]\nidle_timeout = 4\ncountdown = 2\ngreeting = \"Lab station 3\"\n"
            .write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        let database = try AppDatabase(testing: chooser.database)
        try Sample.signIn([Sample.adaGitHub], into: database, session: SessionKey("station")!)
        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk"], environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "Lab station 3")
            #expect(statusBar(screen).contains("○ Anonymous"), "a station starts with nobody, whoever was left active")
            try await tmux.press("Enter")
            screen = try await tmux.waitUntil("Ada is chosen") { statusBar($0).contains("● Ada Lovelace") }
            try await tmux.press("q")
            try await tmux.press("C-c")
            try await tmux.press("C-z")
            screen = try await tmux.waitFor(text: "This station is locked.")
            // Nor does kill -TSTP stop it: it still draws what a key asks for.
            kill(try await tmux.programID(), SIGTSTP)
            try await tmux.press("?")
            try await tmux.waitFor(text: "Keys")
            try await tmux.press("Escape")
            #expect(!screen.contains("quit"), "the key bar leaves out what a station refuses")

            screen = try await tmux.waitFor(text: "Still there?", timeout: 20)
            #expect(screen.contains("Ada Lovelace will be signed out in"))
            screen = try await tmux.waitUntil("the station is Anonymous again", timeout: 10) { statusBar($0).contains("○ Anonymous") }
            #expect(!screen.contains("Still there?"))
            let status = try await runProcess(builtProduct("switchboard"), ["status", "--json"], environment: chooser.cliEnvironment)
            #expect(status.stdout.contains(#""active":null"#), "\(status.stdout)\(status.stderr)")
            #expect(kill(try await tmux.programID(), 0) == 0, "still running")
            // The log says why, for the idle return and for a stop.
            try await tmux.press("Enter")
            try await tmux.waitUntil("Ada is chosen again") { statusBar($0).contains("● Ada Lovelace") }
            kill(try await tmux.programID(), SIGTERM)
            _ = try await tmux.exitStatus()
            let log = try await runProcess(builtProduct("switchboard"), ["log"], environment: chooser.cliEnvironment)
            // The first sign-out is of Ada, left over from before the start (a stop that could not sign out).
            let signOuts = log.stdout.split(separator: "\n").filter { $0.contains("signed out") }.map { $0.split(separator: "  ").last ?? "" }
            #expect(signOuts == ["signed out (left from an earlier run)", "signed out (idle)", "signed out (stopped)"], "\(log.stdout)")
        }
    }
}

extension KioskEndToEndTests {
    @Test("the operator key asks for the operator PIN; wrong is refused, right opens the menu, and leaving kiosk mode lets q quit",
          .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
    func operatorLeaves() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        try "[kiosk]\ngreeting = \"Lab station 3\"\n".write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        let set = try await runProcess(
            builtProduct("switchboard"), ["pin", "set", "--operator"], environment: chooser.cliEnvironment, input: "2468\n")
        #expect(set.status == 0, "\(set.stderr)")
        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk"], environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "Lab station 3")
            try await tmux.press("F12")
            try await tmux.waitFor(text: "Type the operator PIN")
            try await tmux.press("1", "1", "1", "1", "Enter")
            try await tmux.waitFor(text: "Wrong PIN. Try again.", timeout: 20)
            try await tmux.press("2", "4", "6", "8", "Enter")
            try await tmux.waitFor(text: "Leave kiosk mode", timeout: 20)
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "Kiosk mode is off")
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
    }
}

extension KioskEndToEndTests {
    @Test("the hand-off command runs as the person chosen (after their PIN), with their variables and token; when it exits, or is left idle, the chooser is back and the session Anonymous",
          .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
    func handOff() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        // The script is read at each start, so each hand-off below can behave differently.
        let script = chooser.folder.file("station.sh"), seen = chooser.folder.file("seen")
        try "[kiosk]\nidle_timeout = 5\ncountdown = 1\ngreeting = \"Lab station 3\"\ncommand = [\"sh\", \"\(script)\"]\n"
            .write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        func writeScript(_ body: String) throws { try body.write(toFile: script, atomically: true, encoding: .utf8) }
        try writeScript("""
            printf '%s|%s|%s\\n' "$SWITCHBOARD_ACCOUNT_NAME" "$GH_TOKEN" "$SWITCHBOARD_SESSION" > '\(seen)'
            echo "Hello from the station command"
            read line
            exit 0
            """)
        let database = try AppDatabase(testing: chooser.database)
        guard case .completed(let ada, _, _, _, _) = try database.signIn(
            Sample.adaGitHub, mode: .signIn, session: SessionKey("setup")!, tokens: TokenSet(accessToken: "gho-ada-secret")) else {
            Issue.record("Ada was not signed in")
            return
        }
        try database.setPIN("2468", for: .account(ada.id), proof: nil)
        let status = { try await runProcess(builtProduct("switchboard"), ["status", "--json"], environment: chooser.cliEnvironment).stdout }
        // A command that ignores the hang-up is killed a second after it, not the usual five.
        let environment = chooser.environment.merging(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": "1"]) { $1 }

        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk"], environment: environment) { tmux in
            try await tmux.waitFor(text: "Lab station 3")
            // Chosen, her PIN typed, and handed off: the command has the terminal, as Ada.
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "PIN for Ada Lovelace")
            try await tmux.press("2", "4", "6", "8", "Enter")
            var screen = try await tmux.waitFor(text: "Hello from the station command")
            #expect(!screen.contains("Lab station 3"), "the chooser gave the whole terminal away")
            #expect(try String(contentsOfFile: seen, encoding: .utf8) == "Ada Lovelace|gho-ada-secret|station\n")
            #expect(try await status().contains(#""name":"Ada Lovelace""#))
            // The station reports itself to the fleet: its hand-off runs, for Ada.
            try await waitUntil("the fleet sees the hand-off") { try database.fleet().first?.report.handOffRunning == true }
            let row = try #require(try database.fleet().first)
            #expect(row.accountName == "Ada Lovelace" && row.report.session == "station" && row.report.lastKeyAt != nil)
            // It exits: the chooser is back, with nobody active.
            try await tmux.press("b", "y", "e", "Enter")
            screen = try await tmux.waitUntil("the chooser is back, Anonymous", timeout: 10) { statusBar($0).contains("○ Anonymous") }
            #expect(screen.contains("Lab station 3"))
            #expect(try await status().contains(#""active":null"#))

            // Left idle (5 + 1 s), even one that ignores SIGHUP: it is ended (killed after the grace), and the next person finds Anonymous.
            try writeScript("trap '' HUP\necho \"Hello again\"\nwhile :; do sleep 1; done\n")
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "PIN for Ada Lovelace")
            try await tmux.press("2", "4", "6", "8", "Enter")
            screen = try await tmux.waitFor(text: "Hello again")
            #expect(!screen.contains("Hello from the station command"), "nothing of the last session is left on the screen")
            screen = try await tmux.waitFor(text: "was ended after 6 s without input", timeout: 30)
            #expect(statusBar(screen).contains("○ Anonymous"))
            #expect(try await status().contains(#""active":null"#))
            #expect(kill(try await tmux.programID(), 0) == 0, "the station runs on")

            // The station is stopped while handing off: the command goes, and nobody stays signed in.
            try writeScript("echo $$ > '\(seen)'\nsetsid sleep 600 &\necho $! >> '\(seen)'\necho \"Hello once more\"\nread line\n")
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "PIN for Ada Lovelace")
            try await tmux.press("2", "4", "6", "8", "Enter")
            try await tmux.waitFor(text: "Hello once more")
            let pids = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
            try #require(pids.count == 2)
            // As login and systemd stop it: SIGTERM, then SIGHUP at once.
            let station = try await tmux.programID()
            kill(station, SIGTERM)
            kill(station, SIGHUP)
            #expect(try await tmux.exitStatus() == 128 + SIGTERM)
            #expect(try database.fleet().first?.report.isOffline(at: Date()) == true, "a stopped station is offline at once")
            // (A zombie is gone too: once the station has exited, whoever inherits it may be slow to reap it.)
            let gone = { (pid: pid_t) in kill(pid, 0) == -1 || (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") == true }
            #expect(pids.allSatisfy(gone), "the command, and what it left running in a session of its own, are gone")
            #expect(try await status().contains(#""active":null"#))
        }
    }
}
