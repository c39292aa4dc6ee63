import Foundation
import Testing
import TestBasics
import TestSupport

/// `status --watch` as a status bar runs it: a long-lived process that
/// hears of other processes' switches.
@Suite("status --watch")
struct StatusWatchTests {
    @Test("prints the status now, then a JSON line per change another process makes in this session; Ctrl-C exits 0")
    func watchesThisSession() async throws {
        let cli = CLI()
        let (ada, grace) = try cli.populate()
        let watch = try LiveProcess(
            builtProduct("switchboard"), ["status", "--watch", "--json"],
            environment: ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "bar"])
        defer { watch.terminate() }
        #expect(await watch.line(containing: #""reason":"current""#) != nil, "\(watch.stderr)")

        #expect(try await cli.spawn("switch", "\(ada)", session: "bar").status == 0)
        #expect(try await cli.spawn("switch", "\(grace)", session: "elsewhere").status == 0, "another session: not printed")
        #expect(try await cli.spawn("sign-out", session: "bar").status == 0)
        try await waitFor(watch, lines: 3)
        let lines = watch.lines
        #expect(lines.count == 3, "\(lines)")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["reason"] as? String } == ["current", "changed", "changed"])
        #expect(objects.allSatisfy { $0["session"] as? String == "bar" && $0["at"] is String })
        #expect((objects[1]["active"] as? [String: Any])?["id"] as? Int64 == ada.rawValue)
        #expect(objects[2]["active"] is NSNull)

        watch.interrupt()
        #expect(await watch.exitStatus() == 0)
    }

    @Test("--all prints every session's changes as text; a closed pipe ends it quietly")
    func everySessionAndClosedPipe() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        // Reads two lines and goes, as `head -n 2` would (without its buffering).
        let script = "\"$0\" status --watch --all | { read -r a; echo \"$a\"; read -r b; echo \"$b\"; }; echo \"watch:${PIPESTATUS[0]}\""
        let watch = try LiveProcess(
            "/bin/bash", ["-c", script, builtProduct("switchboard")],
            environment: ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "bar"])
        defer { watch.terminate() }
        #expect(await watch.line(containing: "session bar") != nil, "\(watch.stderr)")
        #expect(try await cli.spawn("switch", "\(ada)", session: "elsewhere").status == 0)
        #expect(await watch.line(containing: "session elsewhere")?.contains("Ada Lovelace") == true)
        // head has gone; the next line written finds no reader.
        #expect(try await cli.spawn("sign-out", session: "elsewhere").status == 0)
        #expect(await watch.line(containing: "watch:") == "watch:0", "\(watch.lines) \(watch.stderr)")
        #expect(!watch.stderr.contains("Broken pipe"))
    }

    /// Waits until the process has printed `lines` lines (ten seconds at most: a guard, not a figure).
    func waitFor(_ process: LiveProcess, lines: Int) async throws {
        try await waitUntil("\(lines) lines from status --watch") { process.lines.count >= lines }
    }
}
