import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
@testable import switchboard

/// Directory rules and the one precedence, through the commands in this
/// process: `--account` > `SWITCHBOARD_ACCOUNT` (unless the hook's own) > a
/// trusted rule > the terminal's choice.
@Suite("switchboard: directory rules and who acts here")
struct DirectoryRuleCLITests {
    /// Ada (a GitHub token stored) and Grace (active in the terminal, no GitHub
    /// token), a home holding `work/.switchboard` that names Ada, and the
    /// environment of a command run in `work/sub` there.
    private struct Rig {
        let cli = CLI()
        var home: String { cli.folder.file("home") }
        var rule: String { home + "/work/.switchboard" }

        init() throws {
            _ = try cli.populate()
            try FileManager.default.createDirectory(atPath: cli.folder.file("home/work/sub"), withIntermediateDirectories: true)
            try write("account = \"ada@example.org\"\n", to: rule)
        }

        func write(_ text: String, to path: String) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func environment(in folder: String = "work/sub", _ more: [String: String] = [:]) -> [String: String] {
            [
                "HOME": home, "PWD": home + "/" + folder, "XDG_DATA_HOME": cli.folder.file("share"), "XDG_CONFIG_HOME": cli.folder.file("config"),
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": cli.folder.file("gitconfig"),
            ].merging(more) { $1 }
        }

        func run(_ arguments: String..., in folder: String = "work/sub", with more: [String: String] = [:]) async -> ProcessResult {
            await TestIO(environment: cli.environment(session: "tty-test", environment(in: folder, more))).run(arguments)
        }

        /// Runs in a terminal of the given lifetime (its own session, none named), with `input`.
        func run(_ arguments: String..., terminal lifetime: String, input: String? = nil) async -> ProcessResult {
            let environment = environment(["SWITCHBOARD_DATABASE": cli.path, "XDG_RUNTIME_DIR": cli.folder.file("run")])
            return await TestIO(environment: environment, input: input, terminal: TerminalIdentity(name: "pts/7", lifetime: lifetime)).run(arguments)
        }

        private func environment(_ more: [String: String]) -> [String: String] { environment(in: "work/sub", more) }
    }

    @Test("a rule applies only once allowed, and as allowed: new and changed ones are reported and not applied; denied ones are quiet; allow names who it chooses")
    func trust() async throws {
        let rig = try Rig()
        #expect(await rig.run("switch", "hopper").status == 0)
        let untrusted = await rig.run("status")
        #expect(untrusted.stdout.hasPrefix("Grace Hopper"), "\(untrusted.stdout)")
        #expect(untrusted.stderr.contains("~/work/.switchboard names \"ada@example.org\" but is not allowed yet"), "\(untrusted.stderr)")
        #expect(await rig.run("token", "github").status == 17, "Grace has no GitHub token: the rule is not applied")

        let allowed = await rig.run("allow")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("Allowed ~/work/.switchboard") && allowed.stdout.contains("is Ada Lovelace, account 1"), "\(allowed.stdout)")
        let status = await rig.run("status")
        #expect(status.stdout.hasPrefix("Ada Lovelace"), "\(status.stdout)")
        #expect(status.stdout.contains("  chosen by ~/work/.switchboard line 1; this terminal's own choice: Grace Hopper"), "\(status.stdout)")
        #expect(status.stdout.contains("  tokens: github "), "\(status.stdout)")
        #expect(status.stderr.isEmpty, "\(status.stderr)")
        let token = await rig.run("token", "github")
        #expect(token.status == 0 && token.stdout == "gho_SECRETaccess\n", "\(token.stderr)")
        // Outside the tree, the terminal's choice.
        let outside = await rig.run("status", in: "")
        #expect(outside.stdout.hasPrefix("Grace Hopper") && outside.stdout.contains("chosen by this terminal's choice"), "\(outside.stdout)")
        // The rule never wrote the session.
        #expect(await rig.run("status", "--json", in: "").stdout.contains("\"name\":\"Grace Hopper\""))

        try rig.write("account = \"ada@example.org\"\n# changed\n", to: rig.rule)
        let changed = await rig.run("status")
        #expect(changed.stdout.hasPrefix("Grace Hopper") && changed.stderr.contains("changed since it was allowed"), "\(changed)")
        #expect(await rig.run("deny").status == 0)
        let denied = await rig.run("status")
        #expect(denied.stdout.hasPrefix("Grace Hopper") && denied.stderr.isEmpty, "\(denied)")
    }

    @Test("precedence: --account, then SWITCHBOARD_ACCOUNT unless the hook set it, then the rule, then the terminal; status --json names the source")
    func precedence() async throws {
        let rig = try Rig()
        #expect(await rig.run("switch", "hopper").status == 0)
        #expect(await rig.run("allow").status == 0)
        let json = await rig.run("status", "--json")
        #expect(json.stdout.contains("\"source\":\"rule\"") && json.stdout.contains("\"chosenBy\":\"~/work/.switchboard line 1\""), "\(json.stdout)")
        // The environment (a person's, or exec's) beats the rule.
        let environment = await rig.run("status", "--json", with: ["SWITCHBOARD_ACCOUNT": "2"])
        #expect(environment.stdout.contains("\"source\":\"environment\"") && environment.stdout.contains("Grace Hopper"), "\(environment.stdout)")
        #expect(await rig.run("token", "github", with: ["SWITCHBOARD_ACCOUNT": "2"]).status == 17)
        // The hook's own value gives way to the rule.
        let hooked = await rig.run("token", "github", with: ["SWITCHBOARD_ACCOUNT": "2", "SWITCHBOARD_HOOK_ACCOUNT": "2"])
        #expect(hooked.status == 0 && hooked.stdout == "gho_SECRETaccess\n", "\(hooked.stderr)")
        // --account beats everything.
        #expect(await rig.run("token", "github", "--account", "hopper", with: ["SWITCHBOARD_ACCOUNT": "1"]).status == 17)
    }

    @Test("a rule per provider wins for that provider's token; an unknown key or a rule naming nobody is said with file and line and not applied")
    func perProviderAndBroken() async throws {
        let rig = try Rig()
        #expect(await rig.run("switch", "ada").status == 0)
        try rig.write("account = \"ada@example.org\"\n[providers]\ngithub = \"Grace Hopper\"\n", to: rig.rule)
        #expect(await rig.run("allow").status == 0)
        // GitHub's token is Grace's (none stored), the rest Ada's.
        let github = await rig.run("token", "github")
        #expect(github.status == 17, "\(github)")
        let google = await rig.run("status")
        #expect(google.stdout.hasPrefix("Ada Lovelace"), "\(google.stdout)")

        try rig.write("acount = \"ada\"\n", to: rig.rule)
        let broken = await rig.run("status")
        #expect(broken.stderr.contains(rig.rule) && broken.stderr.contains("acount") && broken.stderr.contains("not applied"), "\(broken.stderr)")
        let refused = await rig.run("allow")
        #expect(refused.status == 6 && refused.stderr.contains("acount"), "\(refused.stderr)")

        try rig.write("account = \"Nobody At All\"\n", to: rig.rule)
        #expect(await rig.run("allow").stderr.contains("no account matches"))
        let unknown = await rig.run("token", "github")
        #expect(unknown.status == 2 && unknown.stderr.contains("~/work/.switchboard line 1: no account matches"), "\(unknown.stderr)")
    }

    @Test("git config switchboard.account: from the person's global configuration (an includeIf) it applies at once; a repository's own needs allowing")
    func gitConfig() async throws {
        let rig = try Rig()
        try FileManager.default.removeItem(atPath: rig.rule)
        #expect(await rig.run("switch", "hopper").status == 0)
        let repository = rig.home + "/repo"
        let environment = rig.environment(in: "repo")
        let initialized = try await runProcess("/usr/bin/git", ["init", "-q", repository], environment: environment)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        try rig.write("[includeIf \"gitdir:\(repository)/\"]\n\tpath = \(rig.cli.folder.file("work.gitconfig"))\n", to: rig.cli.folder.file("gitconfig"))
        try rig.write("[switchboard]\n\taccount = ada@example.org\n", to: rig.cli.folder.file("work.gitconfig"))
        let global = await rig.run("status", in: "repo")
        #expect(global.stdout.hasPrefix("Ada Lovelace"), "\(global)")
        #expect(global.stdout.contains("chosen by git config switchboard.account ("), "\(global.stdout)")

        try FileManager.default.removeItem(atPath: rig.cli.folder.file("gitconfig"))
        let configured = try await runProcess(
            "/usr/bin/git", ["-C", repository, "config", "switchboard.account", "ada@example.org"], environment: environment)
        #expect(configured.status == 0)
        let local = await rig.run("status", in: "repo")
        #expect(local.stdout.hasPrefix("Grace Hopper") && local.stderr.contains("not allowed yet"), "\(local)")
        #expect(await rig.run("allow", in: "repo").status == 0)
        #expect(await rig.run("status", in: "repo").stdout.hasPrefix("Ada Lovelace"))
    }

    @Test("a rule's account with a PIN asks for it once per terminal: given once, later commands there need none; another terminal asks again")
    func pinOncePerTerminal() async throws {
        let rig = try Rig()
        let first = "host/boot/100/1", second = "host/boot/200/2"
        #expect(await rig.run("switch", "ada", terminal: first).status == 0)
        #expect(await rig.run("pin", "set", terminal: first, input: "2468\n").status == 0)
        #expect(await rig.run("switch", "hopper", terminal: first).status == 0)
        #expect(await rig.run("allow", terminal: first).status == 0)
        let asked = await rig.run("token", "github", terminal: first)
        #expect(asked.status == 7, "no terminal to ask on, no --pin-stdin: \(asked.stderr)")
        let given = await rig.run("token", "github", "--pin-stdin", terminal: first, input: "2468\n")
        #expect(given.status == 0 && given.stdout == "gho_SECRETaccess\n", "\(given.stderr)")
        let again = await rig.run("token", "github", terminal: first)
        #expect(again.status == 0 && again.stdout == "gho_SECRETaccess\n", "once given in this terminal: \(again.stderr)")
        #expect(await rig.run("switch", "hopper", terminal: second).status == 0)
        #expect(await rig.run("token", "github", terminal: second).status == 7, "another terminal asks again")
        // --account is not the rule: it asks each time, as before.
        #expect(await rig.run("token", "github", "--account", "ada", terminal: first).status == 7)
    }
}
