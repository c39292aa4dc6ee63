import Foundation
import Testing
import TestSupport
@testable import switchboard

/// The command line before ArgumentParser reads it, and `--help`'s exit statuses.
@Suite("switchboard: unknown commands, options before the command, the exit statuses in --help")
struct CommandWordsTests {
    @Test("a mistyped command is said with the nearest one (64), not the chooser's usage; no near one, none suggested")
    func unknown() async throws {
        let cli = CLI()
        let typo = await cli.run("acounts")
        #expect(typo.status == 64)
        #expect(typo.stderr == "switchboard: unknown command \"acounts\"; did you mean \"accounts\"? (`switchboard --help` lists the commands)\n")
        let far = await cli.run("frobnicate", "--now")
        #expect(far.status == 64 && far.stderr.contains("unknown command \"frobnicate\"") && !far.stderr.contains("did you mean"))
        #expect(await cli.run("stauts").stderr.contains("did you mean \"status\""))
    }

    @Test("common options before the command go after it: --config F status, --json --session S status, --database=F accounts")
    func optionsFirst() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let missing = cli.folder.file("absent.toml")
        let status = await TestIO(environment: ["SWITCHBOARD_DATABASE": cli.path]).run(["--session", "tty-test", "--config", missing, "status"])
        #expect(status.status == 0 && status.stdout.hasPrefix("Anonymous in session tty-test"), "\(status.stderr)")
        #expect(status.stderr.contains(missing), "the named file is the one read: \(status.stderr)")
        let json = await cli.run("--json", "switch", "ada")
        #expect(json.status == 0 && json.stdout.hasPrefix("{"), "\(json.stderr)")
        let accounts = await TestIO(environment: [:]).run(["--database=" + cli.path, "accounts"])
        #expect(accounts.status == 0 && accounts.stdout.contains("Ada Lovelace"), "\(accounts.stderr)")
        // Only options: the chooser's, as before; the order rule leaves them be.
        #expect(CommandWords.arrange(["--json"], commands: ["status"]) == .success(["--json"]))
        #expect(CommandWords.arrange(["--session", "s", "--theme", "light"], commands: ["status"]) == .success(["--session", "s", "--theme", "light"]))
    }

    @Test("--help lists every exit status, codes right-aligned and meanings wrapped under themselves within 80 columns")
    func helpStatuses() async throws {
        let help = await CLI().run("--help")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "Exit statuses:"))
        let block = lines[(start + 1)...].prefix { !$0.isEmpty }
        for status in ExitStatus.allCases {
            let code = String(status.rawValue)
            #expect(block.contains { $0.hasPrefix(String(repeating: "\u{A0}", count: 4 - code.count) + code + "\u{A0}\u{A0}") }, "\(code)")
        }
        for line in block {
            #expect(line.count <= 80, "\(line)")
            #expect(line.first == "\u{A0}", "a line at column 0: \(line)")
        }
    }

    @Test("status --check with the demo provider stopped says to start it, beside what the check met")
    func stoppedDemo() async throws {
        let rig = try await ToolRig()
        try await rig.signIn(as: "ada", session: "left")
        await rig.server.stop()
        let check = await rig.run("status", "--check", session: "left")
        #expect(check.stdout.contains("unknown (") && check.stdout.contains("is the demo provider running? Start it with `switchboard demo serve`"), "\(check.stdout)")
        await rig.stop()
    }
}
