import Foundation
import ProcessKit
import Store
import SwitchboardCore
import Testing
import TestSupport

/// Sessions as processes meet them: a terminal's own, a process with none,
/// and a terminal that a new login gets after the last one closed.
@Suite("switchboard: a session lives as long as its terminal")
struct TerminalSessionCLITests {
    /// Runs `script` under sh as the session leader of `terminal` (a login on it), to its end; returns what it printed.
    private func login(on terminal: PseudoTerminal, _ script: String, environment: [String: String]) throws -> String {
        let before = terminal.received.count
        let process = try TerminalProcess("/bin/sh", arguments: ["-c", script], environment: environment, on: terminal)
        #expect(process.finish(timeout: 60) == 0)
        return String(decoding: terminal.received[before...], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test("a new login on a terminal of the same name starts Anonymous; within one login the choice holds; the name shown is the terminal's")
    func newLoginStartsAnonymous() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let terminal = try PseudoTerminal()
        let name = String(terminal.slavePath.dropFirst("/dev/".count))
        let switchboard = builtProduct("switchboard")
        // No SWITCHBOARD_SESSION: the terminal names the session.
        let environment = ["SWITCHBOARD_DATABASE": cli.path, "PATH": "/usr/bin:/bin", "HOME": cli.folder.path]
        let first = try login(on: terminal, "'\(switchboard)' switch 'Ada Lovelace' >/dev/null && '\(switchboard)' status --json", environment: environment)
        #expect(first.contains("\"session\":\"\(name)\"") && first.contains("\"name\":\"Ada Lovelace\""), "\(first)")
        let second = try login(on: terminal, "'\(switchboard)' status --json", environment: environment)
        #expect(second.contains("\"session\":\"\(name)\"") && second.contains("\"active\":null"), "\(second)")
        // From elsewhere, naming the open terminal reaches neither its choice nor its tokens, and changes nothing.
        // (The marker is one no earlier output holds: the terminal's reader searches all it received.)
        let marker = "switch-done-\(UInt32.random(in: 0...UInt32.max))"
        let open = try TerminalProcess(
            "/bin/sh", arguments: ["-c", "'\(switchboard)' switch 'Ada Lovelace' >/dev/null && echo \(marker) && read line"], environment: environment,
            on: terminal)
        #expect(open.wait(for: Array(marker.utf8), timeout: 60) != nil)
        defer {
            open.send(Array("\n".utf8))
            open.finish(timeout: 10)
        }
        let named = await cli.run("token", "github", "--json", session: name)
        #expect(named.status != 0 && !named.stdout.contains("SECRET"), "\(named.stdout)")
        let changed = await cli.run("switch", "Grace Hopper", session: name)
        #expect(changed.status == 4 && changed.stderr.contains("a terminal's own"), "\(changed.stderr)")
    }

    @Test("a process with no terminal and no session named may read, but not switch, sign out or sign in; '*' names the machine default")
    func noTerminal() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        // No SWITCHBOARD_SESSION and no terminal.
        func run(_ arguments: String...) async -> ProcessResult {
            await TestIO(environment: ["SWITCHBOARD_DATABASE": cli.path]).run(arguments)
        }
        for arguments in [["switch", "Ada Lovelace"], ["sign-out"], ["sign-in", "demo"]] {
            let refused = await TestIO(environment: ["SWITCHBOARD_DATABASE": cli.path]).run(arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("has no terminal") && refused.stderr.contains("--session"), "\(refused.stderr)")
        }
        let status = await run("status", "--json")
        #expect(status.status == 0 && status.stdout.contains("\"active\":null"))
        let machine = await run("switch", "Ada Lovelace", "--session", "*", "--json")
        #expect(machine.status == 0, "\(machine.stderr)")
        #expect(await run("status", "--json").stdout.contains("\"id\":\(ada)"))
        // A named session does not act as the machine default.
        #expect(await cli.run("status", "--json", session: "somewhere-new").stdout.contains("\"active\":null"))
        // The built program, started with no terminal, is refused the same way.
        let spawned = try await runProcess(builtProduct("switchboard"), ["sign-out"], environment: ["SWITCHBOARD_DATABASE": cli.path])
        #expect(spawned.status == 64 && spawned.stderr.contains("has no terminal"), "\(spawned.stderr)")
    }

    @Test("with a terminal and no session named, the terminal names the session; switching there is allowed")
    func terminalNamesTheSession() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        let terminal = TerminalIdentity(name: "pts/77", lifetime: "elsewhere/boot/4242/1")
        func run(_ arguments: String...) async -> ProcessResult {
            await TestIO(environment: ["SWITCHBOARD_DATABASE": cli.path], terminal: terminal).run(arguments)
        }
        let switched = await run("switch", "Ada Lovelace", "--json")
        #expect(switched.status == 0, "\(switched.stderr)")
        let status = await run("status", "--json")
        #expect(status.stdout.contains("\"session\":\"pts/77\"") && status.stdout.contains("\"id\":\(ada)"), "\(status.stdout)")
        // The machine default is untouched.
        #expect(await cli.run("status", "--json", session: "*").stdout.contains("\"active\":null"))
    }

    @Test("hostile session names from the store reach the terminal filtered in status --watch --all")
    func watchFiltersNames() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        let watch = try LiveProcess(builtProduct("switchboard"), ["status", "--watch", "--all"],
                                    environment: ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "watcher"])
        defer { watch.terminate() }
        #expect(await watch.line(containing: "watcher") != nil, "\(watch.stderr)")
        // Only another program (not switchboard) could store such a name.
        _ = try database.switchAccount(to: ada, session: SessionKey(stored: "evil\u{1B}]0;owned\u{7}\u{202E}x"))
        let line = try #require(await watch.line(containing: "evil"), "\(watch.lines)")
        #expect(!line.unicodeScalars.contains { $0.isTerminalControl }, "\(line.debugDescription)")
    }
}
