import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport

/// `switchboard kiosk` in a real terminal: nothing a person types quits
/// it, and left alone it goes back to Anonymous.
@Suite("kiosk end to end in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct KioskEndToEndTests {
    @Test("q, Ctrl-C and Ctrl-Z leave it running; idle, a countdown shows and the session is Anonymous for other programs too")
    func lockedAndIdle() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        try "[kiosk]\nidle_timeout = 2\ncountdown = 2\ngreeting = \"Lab station 3\"\n"
            .write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        let database = try AppDatabase(path: chooser.database)
        try Sample.signIn([Sample.adaGitHub], into: database, session: SessionKey("station")!)
        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk"], environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "Lab station 3")
            #expect(statusBar(screen).contains("● Ada Lovelace"))
            try await tmux.press("q")
            try await tmux.press("C-c")
            try await tmux.press("C-z")
            screen = try await tmux.waitFor(text: "This station is locked.")
            #expect(!screen.contains("quit"), "the key bar leaves out what a station refuses")

            screen = try await tmux.waitFor(text: "Still there?", timeout: 10)
            #expect(screen.contains("Ada Lovelace will be signed out in"))
            screen = try await tmux.waitUntil("the station is Anonymous again", timeout: 10) { statusBar($0).contains("○ Anonymous") }
            #expect(!screen.contains("Still there?"))
            let status = try runProcess(builtProduct("switchboard"), ["status", "--json"], environment: chooser.cliEnvironment)
            #expect(status.stdout.contains(#""active":null"#), "\(status.stdout)\(status.stderr)")
            #expect(kill(try await tmux.programID(), 0) == 0, "still running")
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
        let set = try runProcess(
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
