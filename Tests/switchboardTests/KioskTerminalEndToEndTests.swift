import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport

/// A station's hold on its terminal, in tmux: the signals of the job-control
/// set never stop it, and the terminal it takes back from a hand-off command
/// is the one it lent, whatever that command set.
@Suite("a station's terminal in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct KioskTerminalEndToEndTests {
    /// A station under a shell with job control, as its own foreground job: a
    /// process group the stop signals act on (a group whose members' parents
    /// are all outside the session, as tmux's pane alone gives, is never
    /// stopped by them). Returns the station's process id once it runs.
    func station(_ chooser: ChooserFixture, in tmux: Tmux) async throws -> pid_t {
        try await tmux.waitFor(text: "Lab station 3")
        let file = chooser.folder.file("station-pid")
        let pid = try #require(pid_t((try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? ""))
        let group = getpgid(pid), wrapper = getpgid(try await tmux.programID())
        #expect(group == pid && group != wrapper, "the station leads a job of its own")
        return pid
    }

    /// `bash -m`, running `switchboard kiosk` as its foreground job, then waiting.
    func stationArguments(_ chooser: ChooserFixture) -> [String] {
        let script = "sh -c 'echo $$ > \"$0\"; exec \"$@\"' '\(chooser.folder.file("station-pid"))' '\(builtProduct("switchboard"))' kiosk; sleep 600"
        return ["-m", "-c", script]
    }

    @Test("no signal of the job-control set stops a station: it still answers a key", arguments: [SIGTSTP, SIGTTIN, SIGTTOU])
    func neverStopped(signal: Int32) async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        try "[kiosk]\ngreeting = \"Lab station 3\"\n".write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        try await withTmux("/bin/bash", arguments: stationArguments(chooser), environment: chooser.environment) { tmux in
            let pid = try await station(chooser, in: tmux)
            // However this test ends, the station does not stay behind, stopped.
            defer {
                kill(pid, SIGCONT)
                kill(pid, SIGKILL)
            }
            kill(pid, signal)
            // Watched from outside: once the signal is no longer pending, the station is either running or stopped.
            let settled = await ProcStat.settled(pid, after: signal, timeout: 10)
            let state = try #require(settled, "signal \(signal) never left the pending set")
            #expect(state != "T" && state != "t", "signal \(signal) stopped the station (state \(state))")
            try await tmux.press("?")
            try await tmux.waitFor(text: "Keys", timeout: 10)
            #expect(ProcStat.state(pid).map { $0 != "T" && $0 != "t" } == true)
        }
    }
}

extension KioskTerminalEndToEndTests {
    @Test("after a hand-off command that set a title, auto-wrap off, origin mode, a scroll region and more, the station's terminal is reset and its frame whole")
    func handOffLeavesNothing() async throws {
        let chooser = try ChooserFixture(session: "station")
        defer { chooser.remove() }
        let script = chooser.folder.file("station.sh")
        try "[kiosk]\ngreeting = \"Lab station 3\"\ncommand = [\"sh\", \"\(script)\"]\n"
            .write(toFile: chooser.folder.file("config.toml"), atomically: true, encoding: .utf8)
        // Everything a program may set and leave set; then it waits for Enter.
        try #"""
            printf '\033]0;Ada'"'"'s mail\007\033[?7l\033[?6h\033[5;10r\033[4h\033[?5h\033[?25l\033[1;31m\033[?2004h\033[?1003h\033[?1004h'
            echo "Hello from the station command"
            read line
            """#.write(toFile: script, atomically: true, encoding: .utf8)
        let database = try AppDatabase(testing: chooser.database)
        _ = try database.signIn(Sample.adaGitHub, mode: .signIn, session: SessionKey("setup")!, tokens: TokenSet(accessToken: "gho-ada"))
        try await withTmux(builtProduct("switchboard"), arguments: ["kiosk"], environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "▸ Ada Lovelace")
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "Hello from the station command")
            #expect(try await tmux.format("#{pane_title}") == "Ada's mail")
            #expect(try await tmux.format("#{wrap_flag} #{origin_flag} #{scroll_region_upper} #{scroll_region_lower}") == "0 1 4 9")
            try await tmux.press("Enter")
            let screen = try await tmux.waitUntil("the chooser is back, Anonymous", timeout: 10) { statusBar($0).contains("○ Anonymous") }
            #expect(try await tmux.format("#{pane_title}") != "Ada's mail", "the last person's title is gone")
            let flags = "#{wrap_flag} #{origin_flag} #{scroll_region_upper} #{scroll_region_lower} #{insert_flag} #{mouse_all_flag} #{alternate_on}"
            let shown = try await tmux.format(flags)
            #expect(shown == "1 0 0 29 0 0 1", "\(shown): auto-wrap on, origin mode off, the whole screen scrolls, no insert, no mouse motion")
            // The frame is whole: the status bar on top, the panes' borders at the edges, the key bar at the bottom.
            let rows = screen.components(separatedBy: "\n")
            try #require(rows.count >= 30, "\(tmux.framed(screen))")
            #expect(rows[0].contains("Lab station 3"), "\(tmux.framed(screen))")
            #expect(rows[1].hasPrefix("┌") && rows[1].hasSuffix("┐"), "\(tmux.framed(screen))")
            #expect(rows[28].hasPrefix("└") && rows[28].hasSuffix("┘"), "\(tmux.framed(screen))")
            #expect(!rows[29].isEmpty, "the key bar: \(tmux.framed(screen))")
            let styled = try await tmux.styledScreen()
            #expect(!styled.contains("\u{1B}[31m") && !styled.contains("\u{1B}[1;31m"), "nothing is drawn in the command's red")
        }
    }
}

/// A process's state as `/proc` shows it, read from outside.
enum ProcStat {
    /// The state letter of `/proc/PID/stat` (R, S, D, T, t, Z…); nil once gone.
    static func state(_ pid: pid_t) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: end)...].split(separator: " ").first?.first
    }

    /// Whether `signal` is pending for `pid` (for the process or any of its threads).
    static func isPending(_ pid: pid_t, _ signal: Int32) -> Bool {
        let bit = UInt64(1) << UInt64(signal - 1)
        var masks: [String] = []
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") {
                masks.append(String(line.split(separator: ":")[1]).trimmingCharacters(in: .whitespaces))
            }
        }
        return masks.contains { (UInt64($0, radix: 16) ?? 0) & bit != 0 }
    }

    /// The state of `pid` once `signal` is no longer pending for it (taken,
    /// ignored, or acted on), polled every 10 ms; nil after `timeout` seconds.
    static func settled(_ pid: pid_t, after signal: Int32, timeout: Double) async -> Character? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !isPending(pid, signal), let state = state(pid) { return state }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
