import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
import ToolCredentials
@testable import switchboard

/// Commits carry the person: `env`, `status` (in this process).
@Suite("switchboard env and status: whose name and email commits carry")
struct CommitIdentityCLITests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("env sets git's author and committer from the verified email; unsets them without one; leaves them alone with set_identity = false")
    func environment() async throws {
        let cli = CLI()
        _ = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let ada = try json(await cli.run("env", "--json").stdout)
        #expect(ada["GIT_AUTHOR_NAME"] as? String == "Ada Lovelace" && ada["GIT_AUTHOR_EMAIL"] as? String == "ada@example.org")
        #expect(ada["GIT_COMMITTER_NAME"] as? String == "Ada Lovelace" && ada["GIT_COMMITTER_EMAIL"] as? String == "ada@example.org")
        let script = await cli.run("env", "--shell", "bash").stdout
        #expect(script.contains("export GIT_AUTHOR_EMAIL='ada@example.org'\n"))
        // Alan has no verified email: the variables are unset, so the last person's never stay.
        let alan = LinkedIdentity(identity: Identity(provider: "demo", subject: "1912"), displayName: "Alan Turing", email: "alan@x.test")
        try Sample.signIn([alan], into: try AppDatabase(testing: cli.path), session: SessionKey("tty-test")!)
        let grace = try json(await cli.run("env", "--json").stdout)
        #expect(grace["GIT_AUTHOR_EMAIL"] is NSNull && grace["GIT_COMMITTER_NAME"] is NSNull)
        #expect(await cli.run("env", "--shell", "bash").stdout.contains("unset GIT_AUTHOR_EMAIL\n"))
        #expect(await cli.run("status").stdout.contains("  commits: no verified email, so git's own user.email"))
        // [git] set_identity = false: not touched at all; identity_provider picks the identity.
        let off = cli.folder.file("off.toml")
        try "[git]\nset_identity = false\n".write(toFile: off, atomically: true, encoding: .utf8)
        #expect(try json(await cli.run("env", "--json", environment: ["SWITCHBOARD_CONFIG": off]).stdout)["GIT_AUTHOR_EMAIL"] == nil)
        #expect(!(await cli.run("status", environment: ["SWITCHBOARD_CONFIG": off]).stdout.contains("commits")))
        #expect(await cli.run("sign-out").status == 0)
        #expect(try json(await cli.run("env", "--json").stdout)["GIT_AUTHOR_NAME"] is NSNull)
    }

    @Test("a command run as an account (exec, a station's hand-off) gets its commit identity over the environment's, or none of it")
    func forCommand() {
        let base = ["GIT_AUTHOR_NAME": "Last Person", "GIT_COMMITTER_EMAIL": "last@example.org", "HOME": "/home/x"]
        let ada = Account(id: AccountID(1), name: "Ada Lovelace", identities: [Sample.adaGitHub])
        let session = SessionKey("station")!
        let given = AccountEnvironment.forCommand(account: ada, session: session, configuration: .init(providers: []), git: .init(), tokens: [], base: base)
        #expect(given["GIT_AUTHOR_NAME"] == "Ada Lovelace" && given["GIT_COMMITTER_EMAIL"] == "ada@example.org" && given["HOME"] == "/home/x")
        let none = Account(id: AccountID(2), name: "Grace Hopper", identities: [Sample.graceGitHub])
        let cleared = AccountEnvironment.forCommand(account: none, session: session, configuration: .init(providers: []), git: .init(), tokens: [], base: base)
        #expect(cleared["GIT_AUTHOR_NAME"] == nil && cleared["GIT_COMMITTER_EMAIL"] == nil)
        let off = AccountEnvironment.forCommand(
            account: ada, session: session, configuration: .init(providers: []), git: .init(setIdentity: false), tokens: [], base: base)
        #expect(off["GIT_AUTHOR_NAME"] == "Last Person" && off["GIT_AUTHOR_EMAIL"] == nil)
    }

    @Test("status shows the name and email commits carry, after the status's own words")
    func status() async throws {
        let cli = CLI()
        _ = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let line = await cli.run("status").stdout
        #expect(line.hasPrefix("Ada Lovelace  github ✓, google ✓  (account"))
        // The first line ends with the commits; what chose the account and its tokens' lives follow.
        let first = line.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasSuffix("  commits: Ada Lovelace <ada@example.org>"))
        #expect(line.contains("\n  chosen by this terminal's choice\n  tokens: github does not expire, google none stored\n"), "\(line)")
        let google = cli.folder.file("google.toml")
        try "[providers.google]\nclient_id = \"c\"\nclient_secret = \"s\"\n[git]\nidentity_provider = \"google\"\n".write(toFile: google, atomically: true, encoding: .utf8)
        #expect(await cli.run("status", environment: ["SWITCHBOARD_CONFIG": google]).stdout.contains("commits: Ada Lovelace <ada@example.org>\n"))
        let broken = cli.folder.file("broken.toml")
        try "[git]\nset_identity = 3\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = await cli.run("status", environment: ["SWITCHBOARD_CONFIG": broken])
        #expect(refused.status == 6 && refused.stderr.contains("git.set_identity"))
    }
}
