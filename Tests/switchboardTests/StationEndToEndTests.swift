import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
import TestBasics

/// A station as a console runs it: the kiosk as a login shell, and the
/// kiosk with no controlling terminal, whose terminal then goes away.
@Suite("a station on a console, in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct StationEndToEndTests {
    @Test("under setsid (no controlling terminal) the kiosk draws and takes keys, and exits within seconds when its terminal hangs up")
    func noControllingTerminal() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        try "[kiosk]\ngreeting = \"Lab station 3\"\n".write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        let database = try AppDatabase(testing: chooser.database)
        try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: SessionKey("elsewhere")!)
        var program: pid_t = 0
        defer { if program > 0 && ProcessState(program)?.isRunning == true { kill(program, SIGKILL) } }
        try await withTmux("setsid", arguments: ["-w", builtProduct("switchboard"), "kiosk"], environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "Lab station 3")
            program = try await tmux.programID()
            // The wrapper's shell leads no process group, so setsid made
            // the program itself a session's leader, with no terminal.
            let state = try #require(ProcessState(program))
            #expect(state.command == "switchboard", "setsid forked: the pid is not the program's")
            #expect(state.session == program && state.controllingTerminal == 0, "\(state)")

            let selected = try #require(selectedRow(screen), "\(tmux.framed(screen))")
            try await tmux.press("Down")
            screen = try await tmux.waitUntil("the selection moved") { selectedRow($0) != nil && selectedRow($0) != selected }
            // Ctrl-C makes no signal without a controlling terminal; the station says it is locked.
            try await tmux.press("C-c")
            try await tmux.waitFor(text: "This station is locked.")
            #expect(ProcessState(program)?.isRunning == true)

            // The terminal hangs up: no SIGHUP reaches a process outside its
            // session; the program sees its input hang up and ends.
            let killed = try await tmux.run(["kill-session", "-t", Tmux.target])
            #expect(killed.status == 0, "\(killed.stderr)")
            try await waitUntil("the program to end within 5 s of its terminal hanging up", within: 5) { ProcessState(program)?.isRunning != true }
        }
    }

    @Test("as a login shell (-switchboard, no arguments) it is the kiosk, configured from the usual place; q does not quit; SIGHUP exits 129")
    func loginShell() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        // The station's own file, where a login finds it: $XDG_CONFIG_HOME/switchboard/config.toml.
        let station = try String(contentsOfFile: StationFiles.path("config.toml"), encoding: .utf8)
        let greeting = try #require(station.firstMatch(of: /greeting = "([^"]+)"/)).output.1
        try FileManager.default.createDirectory(atPath: chooser.folder.file("config/switchboard"), withIntermediateDirectories: true)
        try station.write(toFile: chooser.folder.file("config/switchboard/config.toml"), atomically: true, encoding: .utf8)
        var environment = chooser.environment
        environment["SWITCHBOARD_CONFIG"] = nil
        environment["SWITCHBOARD_DATABASE"] = nil
        // bash's `exec -a` names the program as login(1) does.
        try await withTmux("/bin/bash", arguments: ["-c", #"exec -a -switchboard "$0""#, builtProduct("switchboard")],
                           environment: environment) { tmux in
            var screen = try await tmux.waitFor(text: String(greeting))
            let program = try await tmux.programID()
            let arguments = try String(contentsOfFile: "/proc/\(program)/cmdline", encoding: .utf8)
            #expect(arguments == "-switchboard\0", "not started as a login shell: \(arguments.debugDescription)")
            #expect(!screen.contains("quit"), "the key bar leaves out what a station refuses")
            try await tmux.press("q")
            screen = try await tmux.waitFor(text: "This station is locked.")
            #expect(ProcessState(program)?.isRunning == true)
            #expect(FileManager.default.fileExists(atPath: chooser.folder.file("share/switchboard/switchboard.sqlite")))

            kill(program, SIGHUP)
            #expect(try await tmux.exitStatus() == 129)
            #expect(try await tmux.terminalLeftovers() == [])
        }
    }
}

/// The accounts pane's selected row (marked ▸), if one shows.
private func selectedRow(_ screen: String) -> String? {
    accountsPane(screen).first { $0.contains("▸") }
}

/// A process as `/proc/PID/stat` describes it.
struct ProcessState: CustomStringConvertible {
    /// Its name (`comm`).
    let command: String
    /// R, S, D, T, Z (exited, not yet reaped), X…
    let state: Character
    let session: pid_t
    /// The device number of its controlling terminal; 0 for none.
    let controllingTerminal: Int

    /// Nil when there is no such process.
    init?(_ pid: pid_t) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        // pid (comm) state ppid pgrp session tty_nr …
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let state = fields[0].first, let session = pid_t(fields[3]), let terminal = Int(fields[4]) else { return nil }
        command = String(text[text.index(after: open)..<close])
        self.state = state
        self.session = session
        controllingTerminal = terminal
    }

    /// Not exited: a zombie nobody has reaped yet has.
    var isRunning: Bool { state != "Z" && state != "X" }

    var description: String { "\(command) state \(state), session \(session), terminal \(controllingTerminal)" }
}
