import Foundation
import DeviceFlow
import Services
import SwitchboardCore
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

/// What `sign-in` says at its end.
@Suite("switchboard sign-in: its last words")
struct SignInWordsTests {
    private func said(_ report: SignInReport, localDemo: Bool = false) -> String {
        let test = TestIO(environment: [:])
        SignInOutput(json: false, io: test.io, localDemo: localDemo).outcome(report, conflict: nil, session: SessionKey("pts/1")!)
        return test.stdout.contents
    }

    @Test("a new account whose verified email another has: one is 'account 2 has', several 'accounts 2, 4 have', with how to link; never the account itself")
    func sameEmail() {
        let ada = Account(id: AccountID(3), name: "Ada Lovelace")
        let one = said(SignInReport(outcome: .approved(AccountID(3), isNew: true), account: ada, isNew: true, linked: false, conflict: nil, possibleMatches: [AccountID(2), AccountID(3)]))
        #expect(one.contains("Note: account 2 has the same verified email as this one. If it is you, link them: switch to it (switchboard switch 2)"), "\(one)")
        let two = said(SignInReport(outcome: .approved(AccountID(3), isNew: true), account: ada, isNew: true, linked: false, conflict: nil, possibleMatches: [AccountID(2), AccountID(4)]))
        #expect(two.contains("Note: accounts 2, 4 have the same verified email as this one. If they are you"), "\(two)")
        let itself = said(SignInReport(outcome: .approved(AccountID(3), isNew: true), account: ada, isNew: true, linked: false, conflict: nil, possibleMatches: [AccountID(3)]))
        #expect(!itself.contains("Note"), "\(itself)")
    }

    @Test("a demo provider not reached is no network's fault: the advice says so")
    func demoOffline() {
        let report = SignInReport(outcome: .offline("connection refused"), account: nil, isNew: false, linked: false, conflict: nil, possibleMatches: [])
        #expect(said(report, localDemo: true).contains("It runs on this machine, not the network"))
        #expect(said(report).contains("Check the network"))
    }
}

/// What a transport failure says, on this platform's Foundation.
@Suite("transport failures in words")
struct TransportWordsTests {
    @Test("nothing listening on a loopback port is said as 'connection refused', not Foundation's error number")
    func refused() async throws {
        let port = try freeLoopbackPort()
        do {
            _ = try await URLSessionTransport(timeout: 5).send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
            Issue.record("a request to a closed port was answered")
        } catch {
            #expect(error.description == "cannot reach 127.0.0.1: nothing answers there (connection refused)", "\(error)")
            #expect(!error.description.contains("NSURLErrorDomain"))
        }
    }
}
