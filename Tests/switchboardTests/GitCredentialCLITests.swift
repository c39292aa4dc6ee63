import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport

/// `switchboard git-credential` in this process, against a demo provider in
/// this process whose tokens a loopback git server (by `git_hosts`) takes.
@Suite("switchboard git-credential")
struct GitCredentialCLITests {
    static let gitServer = URL(string: "http://127.0.0.1:9418")!

    /// What `get` answered, as attributes.
    private func attributes(_ text: String) -> [String: String] {
        Dictionary(text.split(separator: "\n").map { line in
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }) { first, _ in first }
    }

    private func request(host: String = "127.0.0.1:9418", scheme: String = "http") -> String {
        "protocol=\(scheme)\nhost=\(host)\npath=repo.git\ncapability[]=authtype\nwwwauth[]=Basic realm=\"x\"\n\n"
    }

    @Test("get: each session's active person's fresh token, their login and its expiry; tokens the provider takes as theirs")
    func twoSessions() async throws {
        let rig = try await ToolRig(gitServer: Self.gitServer)
        try await rig.signIn([("ada", "left"), ("grace", "right")])
        let left = await rig.run("git-credential", "get", session: "left", input: request())
        let right = await rig.run("git-credential", "get", session: "right", input: request())
        #expect(left.status == 0 && right.status == 0, "\(left.stderr) \(right.stderr)")
        let ada = attributes(left.stdout), grace = attributes(right.stdout)
        #expect(Set(ada.keys) == ["username", "password", "password_expiry_utc"])
        #expect(ada["username"] == "ada" && grace["username"] == "grace")
        let adaToken = try #require(ada["password"]), graceToken = try #require(grace["password"])
        #expect(adaToken != graceToken)
        #expect(await rig.person(holding: adaToken) == "ada")
        #expect(await rig.person(holding: graceToken) == "grace")
        let expiry = try #require(ada["password_expiry_utc"].flatMap(Int.init))
        #expect(abs(Double(expiry) - Date().timeIntervalSince1970 - 3600) < 120)
        // The issuer itself is a demo git host too; https to it is not the same server.
        #expect(await rig.run("git-credential", "get", session: "left", input: request(host: rig.base.host! + ":\(rig.base.port!)")).stdout.contains("password="))
        #expect(await rig.run("git-credential", "get", session: "left", input: request(scheme: "https")).stdout.isEmpty)
        await rig.stop()
    }

    @Test("two identities of the account for git's server: the one whose login git names answers; else the first, and a line names both and how to pick")
    func twoIdentities() async throws {
        let rig = try await ToolRig(gitServer: Self.gitServer)
        try await rig.signIn(as: "ada", session: "left")
        // Grace's demo identity linked into the same account: two at one provider.
        let link = RunningCommand(["sign-in", "demo", "--link", "--json"], environment: rig.environment(session: "left"))
        let line = try #require(await link.line(containing: "\"event\":\"code\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        try await rig.server.approve(userCode: try #require(object["user_code"] as? String), as: "grace")
        #expect(await link.exitStatus() == 0, "\(link.stderr)")
        func get(username: String?) async -> ProcessResult {
            let named = username.map { "username=\($0)\n" } ?? ""
            return await rig.run("git-credential", "get", session: "left", input: "protocol=http\nhost=127.0.0.1:9418\n\(named)\n")
        }
        let byName = await get(username: "grace")
        #expect(byName.status == 0 && byName.stderr.isEmpty, "\(byName.stderr)")
        #expect(attributes(byName.stdout)["username"] == "grace")
        #expect(await rig.person(holding: try #require(attributes(byName.stdout)["password"])) == "grace")
        for username in [nil, "oauth2"] {
            let first = await get(username: username)
            #expect(first.status == 0 && attributes(first.stdout)["username"] == "ada", "\(first.stderr)")
            #expect(await rig.person(holding: try #require(attributes(first.stdout)["password"])) == "ada")
            #expect(first.stderr.contains("has 2 identities for git (http://127.0.0.1:9418): demo:ada, demo:grace; demo:ada's token is given"), "\(first.stderr)")
            #expect(first.stderr.contains("credential.username"))
        }
        // git's erase names the username the answer gave, which need not pick the identity (oauth2 at GitLab):
        // the token refused is found whichever identity holds it, and that one is refreshed before it is given again.
        let refused = try #require(attributes(byName.stdout)["password"])
        let erased = await rig.run("git-credential", "erase", session: "left", input: "protocol=http\nhost=127.0.0.1:9418\nusername=oauth2\npassword=\(refused)\n\n")
        #expect(erased.status == 0 && erased.stdout.isEmpty, "\(erased.stderr)")
        let next = try #require(attributes(await get(username: "grace").stdout)["password"])
        #expect(next != refused)
        #expect(await rig.person(holding: next) == "grace")
        await rig.stop()
    }

    @Test("another host, nobody chosen, or an account with no identity there: nothing answered, exit 0; nobody chosen is said on standard error")
    func nothingToAnswer() async throws {
        let rig = try await ToolRig(gitServer: Self.gitServer)
        try await rig.signIn(as: "ada", session: "left")
        for host in ["github.com", "127.0.0.1:9419", "gitlab.com"] {
            let other = await rig.run("git-credential", "get", session: "left", input: request(host: host, scheme: "https"))
            #expect(other.status == 0 && other.stdout.isEmpty && other.stderr.isEmpty, "\(host): \(other.stderr)")
        }
        let nobody = await rig.run("git-credential", "get", session: "nobody-here", input: request())
        #expect(nobody.status == 0 && nobody.stdout.isEmpty)
        #expect(nobody.stderr == "switchboard: session nobody-here has nobody chosen, so git (http://127.0.0.1:9418) gets no token; "
            + "choose with `switchboard switch NAME --session nobody-here`\n")
        // An account whose identities are elsewhere (GitHub) answers nothing for the demo's git server.
        let database = try AppDatabase(testing: rig.cli.path)
        try Sample.signIn([Sample.graceGitHub], into: database, session: SessionKey("github-only")!)
        let elsewhere = await rig.run("git-credential", "get", session: "github-only", input: request())
        #expect(elsewhere.status == 0 && elsewhere.stdout.isEmpty && elsewhere.stderr.isEmpty)
        await rig.stop()
    }

    @Test("hostile input: an over-long line or a NUL is refused (64, nothing answered); control characters in the host, unknown and malformed lines get no token or are passed over")
    func hostile() async throws {
        let rig = try await ToolRig(gitServer: Self.gitServer)
        try await rig.signIn(as: "ada", session: "left")
        let long = await rig.run("git-credential", "get", session: "left",
                                 input: "protocol=http\nhost=127.0.0.1:9418\nwwwauth[]=" + String(repeating: "A", count: 70_000) + "\n\n")
        #expect(long.status == 64 && long.stdout.isEmpty && long.stderr.contains("line 3") && long.stderr.contains("longer than 65536"))
        let nul = await rig.run("git-credential", "get", session: "left", input: "protocol=http\nhost=127.0.0.1:9418\u{0}\n\n")
        #expect(nul.status == 64 && nul.stdout.isEmpty && nul.stderr.contains("NUL"))
        for host in ["127.0.0.1:9418\u{1B}[2J", "127.0.0.1\r:9418", "127.0.0.1:9418 ", "\u{7}127.0.0.1:9418"] {
            let control = await rig.run("git-credential", "get", session: "left", input: "protocol=http\nhost=\(host)\n\n")
            #expect(control.status == 0 && control.stdout.isEmpty, "\(host.debugDescription)")
        }
        let noisy = await rig.run("git-credential", "get", session: "left",
                                  input: "garbage line\n=x\nfuture[]=1\nprotocol=http\nhost=127.0.0.1:9418\nusername=\n\n")
        #expect(noisy.status == 0 && noisy.stdout.contains("password="), "\(noisy.stderr)")
        let unknownOperation = await rig.run("git-credential", "capabilities", session: "left", input: request())
        #expect(unknownOperation.status == 0 && unknownOperation.stdout.isEmpty)
        await rig.stop()
    }

    @Test("store changes nothing; erase of the token git saw refused makes the next get refresh first; erase of another changes nothing")
    func storeAndErase() async throws {
        let rig = try await ToolRig(gitServer: Self.gitServer)
        try await rig.signIn(as: "ada", session: "left")
        let database = try AppDatabase(testing: rig.cli.path)
        let ada = Identity(provider: "demo", subject: "1815")
        let before = try #require(try database.credential(for: ada))
        let stored = await rig.run("git-credential", "store", session: "left", input: request() + "username=x\npassword=forged\n\n")
        #expect(stored.status == 0 && stored.stdout.isEmpty)
        let wrong = await rig.run("git-credential", "erase", session: "left", input: "protocol=http\nhost=127.0.0.1:9418\npassword=not-the-token\n\n")
        #expect(wrong.status == 0 && wrong.stdout.isEmpty)
        #expect(try database.credential(for: ada) == before)
        let first = attributes(await rig.run("git-credential", "get", session: "left", input: request()).stdout)["password"]
        #expect(first == before.accessToken)
        let erased = await rig.run("git-credential", "erase", session: "left",
                                   input: "protocol=http\nhost=127.0.0.1:9418\nusername=ada\npassword=\(before.accessToken)\n\n")
        #expect(erased.status == 0 && erased.stdout.isEmpty, "\(erased.stderr)")
        let next = try #require(attributes(await rig.run("git-credential", "get", session: "left", input: request()).stdout)["password"])
        #expect(next != before.accessToken)
        #expect(await rig.person(holding: next) == "ada")
        #expect(try database.credential(for: ada)?.accessToken == next)
        await rig.stop()
    }
}
