import Foundation
import Testing
import TestSupport

/// A station's own parts in a real terminal: the greeting from an issue
/// file, the clock, and the operator menu's power entry running its command.
@Suite("kiosk station end to end in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct KioskStationEndToEndTests {
    @Test("the greeting comes from the issue file; a configured operator key, the PIN, Reboot and yes run the (harmless) command")
    func powerEntry() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        let marker = chooser.folder.file("rebooted")
        let issue = chooser.folder.file("issue")
        try "\n\\e{bold}Station \\l at the lab\\e{reset} \\d\n\\S\n".write(toFile: issue, atomically: true, encoding: .utf8)
        // A stand-in for ["systemctl", "reboot"]: it writes a file, so the test can see that it ran.
        try #"""
            [kiosk]
            operator_key = "ctrl-o"
            power = { reboot = ["sh", "-c", "echo ok > \"$0\"", "\#(marker)"] }

            """#.write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        let set = try await runProcess(
            builtProduct("switchboard"), ["pin", "set", "--operator"], environment: chooser.cliEnvironment, input: "2468\n")
        #expect(set.status == 0, "\(set.stderr)")
        let environment = chooser.environment.merging(["TZ": "UTC"]) { $1 }
        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk", "--issue-file", issue], environment: environment) { tmux in
            let screen = try await tmux.waitFor(text: "at the lab")
            let bar = statusBar(screen)
            #expect(bar.contains(/^\sStation pts\/\d+ at the lab\s/), "\\l is the terminal: \(bar)")
            #expect(!bar.contains("\\") && !bar.contains("{"), "the escapes are gone: \(bar)")
            #expect(bar.contains(/\s\d\d:\d\d\s/), "the clock: \(bar)")

            try await tmux.press("F12")
            try await tmux.press("C-o")
            try await tmux.waitFor(text: "Type the operator PIN")
            try await tmux.press("2", "4", "6", "8", "Enter")
            try await tmux.waitFor(text: "Reboot the station", timeout: 20)
            #expect(!(try await tmux.screen()).contains("Power off the station"), "only what is configured")
            try await tmux.press("Down", "Down", "Down", "Enter")
            try await tmux.waitFor(text: "Reboot the station?")
            #expect(!FileManager.default.fileExists(atPath: marker), "nothing runs before the yes")
            try await tmux.press("y")
            try await tmux.waitFor(text: "The station will reboot now.", timeout: 20)
            #expect(try String(contentsOfFile: marker, encoding: .utf8) == "ok\n")
            #expect(kill(try await tmux.programID(), 0) == 0, "still running")
        }
    }
}
