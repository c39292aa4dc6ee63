import DemoProvider
import Foundation
import GRDB
import Synchronization
import TestBasics
import Testing
import TestSupport
import Store
import SwitchboardCore
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo provider's clock: the wall clock, until a test sets it back.
final class SettableClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func now() -> Date { Date().addingTimeInterval(-offset.withLock { $0 }) }

    /// From now on the provider's time is `moment` plus the time since this call.
    func setBack(to moment: Date) { offset.withLock { $0 = Date().timeIntervalSince(moment) } }
}

/// An in-test demo provider that rotates refresh tokens and issues
/// 1-second access tokens, a database, and a config pointing at the provider.
private final class TokenRig: Sendable {
    let cli = CLI()
    let clock = SettableClock()
    let server: DemoServer
    let base: URL
    let config: String
    /// A shared PostgreSQL store's URL, when the rig uses one instead of the SQLite file.
    let store: String?

    init(store: String? = nil) async throws {
        self.store = store
        let clock = clock
        server = DemoServer(settings: DemoSettings(interval: 1, accessTokenLifetime: 1, rotateRefreshTokens: true), now: { clock.now() })
        base = try await server.start(port: 0)
        config = cli.folder.file("config.toml")
        // Eight processes wait their turn at one refresh lock: on a shared store, more than the standard 2 s
        // under a loaded test run, which would count as the server busy.
        let timeout = store == nil ? "" : "[store]\ntimeout = \(Int(testStoreDeadline))\n"
        try "\(timeout)[providers.demo]\nissuer = \"\(base.absoluteString)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        ["SWITCHBOARD_CONFIG": config].merging(store.map { ["SWITCHBOARD_STORE": $0] } ?? [:]) { $1 }
    }

    /// The rig's store, as tests open it.
    func database() throws -> AppDatabase { try AppDatabase(testing: store.map { .server($0) } ?? .file(cli.path)) }

    /// Runs `switchboard` in this process.
    func run(_ arguments: String..., config: String? = nil) async -> ProcessResult {
        await TestIO(environment: cli.environment(environment.merging(["SWITCHBOARD_CONFIG": config ?? self.config]) { $1 })).run(arguments)
    }

    /// Runs the built `switchboard` as a process.
    func spawn(_ arguments: String...) async throws -> ProcessResult {
        try await runProcess(builtProduct("switchboard"), arguments, environment: cli.environment(environment))
    }

    /// Signs `person` in with `switchboard sign-in demo`, in this process, approved here.
    func signIn(as person: String) async throws {
        let signIn = cli.start("sign-in", "demo", "--json", environment: environment)
        let line = try #require(await signIn.line(containing: "\"event\":\"code\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        try await server.approve(userCode: try #require(object["user_code"] as? String), as: person)
        #expect(await signIn.exitStatus() == 0, "\(signIn.stderr)")
    }

    /// The status the provider's userinfo endpoint answers for `token`.
    func userinfoStatus(_ token: String) async throws -> Int {
        var request = URLRequest(url: base.appendingPathComponent("userinfo"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    func stop() async { await server.stop() }
}

@Suite("switchboard token, env and exec")
struct TokenCLITests {
    static let ada = Identity(provider: "demo", subject: "1815")

    @Test("8 concurrent `token demo --min-valid 3600` against rotating refresh tokens and 1-second access tokens: every one prints a token, none is taken for revoked",
          arguments: [false, true])
    func concurrentRefreshes(shared: Bool) async throws {
        // On PostgreSQL, as eight stations of a fleet would: the refresh is serialised per identity by an advisory lock.
        let rig = try await TokenRig(store: shared ? try TestPostgres.freshStore(suite: #fileID) : nil)
        try await rig.signIn(as: "ada")
        let started = Date()
        let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for _ in 0..<8 {
                group.addTask { try await rig.spawn("token", "demo", "--min-valid", "3600") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            #expect(result.status == 0, "\(result.status): \(result.stderr)")
        }
        #expect(!results.contains { $0.status == 17 })
        let tokens = results.map { $0.stdout.trimmingCharacters(in: .newlines) }
        #expect(tokens.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
        // Each one needed a refresh (a 1-second token is never valid for an hour), and got its own.
        #expect(Set(tokens).count == 8)

        let database = try rig.database()
        #expect(try database.accounts().first?.identities.first?.state == .authorized)
        // The stored refresh token is the provider's current one: one more refresh works.
        let again = await rig.run("token", "demo", "--min-valid", "3600", "--json")
        #expect(again.status == 0, "\(again.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(object["refreshed"] as? Bool == true && object["identity"] as? String == "demo:1815")
        #expect(try database.credential(for: Self.ada)?.accessToken == object["accessToken"] as? String)

        // The printed tokens lived one second; with the provider's clock set back to when the
        // processes started, each is inside its lifetime, and userinfo accepts it.
        rig.clock.setBack(to: started)
        for token in tokens {
            #expect(try await rig.userinfoStatus(token) == 200)
        }
        #expect(try await rig.userinfoStatus("not-a-token") == 401)
        await rig.stop()
    }

    @Test("token: a refused refresh exits 17 and records revoked; an unreachable provider exits 14 and records nothing")
    func revokedAndOffline() async throws {
        let rig = try await TokenRig()
        try await rig.signIn(as: "ada")
        // The demo provider moved to a port where nothing answers.
        let elsewhere = rig.cli.folder.file("elsewhere.toml")
        try "[providers.demo]\nissuer = \"http://127.0.0.1:\(try freeLoopbackPort())\"\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        let offline = await rig.run("token", "--min-valid", "3600", config: elsewhere)
        #expect(offline.status == 14, "\(offline.stderr)")
        let database = try AppDatabase(testing: rig.cli.path)
        #expect(try database.accounts().first?.identities.first?.state == .authorized)

        try await rig.server.forget(personID: "ada")
        let revoked = await rig.run("token", "demo", "--min-valid", "3600")
        #expect(revoked.status == 17)
        #expect(revoked.stderr.contains("revoked") && revoked.stdout.isEmpty)
        #expect(try database.accounts().first?.identities.first?.state == .revoked)
        await rig.stop()
    }

    @Test("token: no active account 16, several providers and none named 3, no identity there 2, nothing stored 17; a token that never expires is printed as stored")
    func tokenStatuses() async throws {
        let cli = CLI()
        let anonymous = await cli.run("token", "github")
        #expect(anonymous.status == 16)
        #expect(anonymous.stderr.contains("acts as nobody"))
        _ = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let several = await cli.run("token")
        #expect(several.status == 3)
        #expect(several.stderr.contains("github, google"))
        #expect(await cli.run("token", "gitlab").status == 2)
        #expect(await cli.run("token", "google").status == 17)
        let github = await cli.run("token", "github")
        #expect(github.status == 0)
        #expect(github.stdout == "gho_SECRETaccess\n")
        #expect(await cli.run("token", "github", "--account", "Grace Hopper").status == 17)
        #expect(await cli.run("token", "--min-valid", "-1").status == 64)
    }

    @Test("env: a hostile account name and token, evaluated by real shells, set exactly themselves and run nothing; no account unsets them")
    func envQuoting() async throws {
        let cli = CLI()
        let marker = cli.folder.file("ran")
        let name = "Eve'; touch \(marker); echo '$(touch \(marker))`touch \(marker)`\n\"q\" \\ $HOME '' ''' end\\"
        let token = "tok'en$(touch \(marker))`x`\\'"
        let database = try AppDatabase(testing: cli.path)
        let identity = Identity(provider: "demo", subject: "eve")
        let id = try Sample.signIn([LinkedIdentity(identity: identity, displayName: name)], into: database, session: SessionKey("tty-test")!)[0]
        try database.saveCredential(TokenSet(accessToken: token), for: identity)
        let script = cli.folder.file("env.sh")
        let shells = [("bash", "bash"), ("sh", "sh"), ("zsh", "zsh"), ("fish", "fish")].filter { shellPath($0.0) != nil }
        for (shell, syntax) in shells {
            let output = await cli.run("env", "--tokens", "--shell", syntax == "sh" ? "sh" : syntax)
            #expect(output.status == 0, "\(output.stderr)")
            try output.stdout.write(toFile: script, atomically: true, encoding: .utf8)
            let printing = shell == "fish"
                ? "source \(script); printf '%s\\n--\\n' $SWITCHBOARD_ACCOUNT \"$SWITCHBOARD_ACCOUNT_NAME\" \"$SWITCHBOARD_DEMO_TOKEN\" $SWITCHBOARD_SESSION"
                : ". \(script); printf '%s\\n--\\n' \"$SWITCHBOARD_ACCOUNT\" \"$SWITCHBOARD_ACCOUNT_NAME\" \"$SWITCHBOARD_DEMO_TOKEN\" \"$SWITCHBOARD_SESSION\""
            let evaluated = try await runProcess(shellPath(shell)!, ["-c", printing])
            #expect(evaluated.status == 0, "\(shell): \(evaluated.stderr)")
            #expect(evaluated.stdout == "\(id.rawValue)\n--\n\(name)\n--\n\(token)\n--\ntty-test\n--\n", "\(shell)")
            #expect(!FileManager.default.fileExists(atPath: marker), "\(shell) ran a command from the output")
        }
        #expect(shells.count >= 2)

        // With no active account the account's variables (and, with --tokens, every token variable) are unset.
        #expect(await cli.run("sign-out").status == 0)
        let unset = await cli.run("env", "--tokens", "--shell", "bash")
        try unset.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let after = try await runProcess("/bin/sh", ["-c", ". \(script); echo ${SWITCHBOARD_ACCOUNT-unset} ${SWITCHBOARD_ACCOUNT_NAME-unset} ${SWITCHBOARD_DEMO_TOKEN-unset} $SWITCHBOARD_SESSION"],
                                   environment: ["SWITCHBOARD_ACCOUNT": "7", "SWITCHBOARD_ACCOUNT_NAME": "old", "SWITCHBOARD_DEMO_TOKEN": "old"])
        #expect(after.stdout == "unset unset unset tty-test\n")
    }

    @Test("env --json: the variables as one object, null when unset, tokens only with --tokens")
    func envJSON() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let plain = await cli.run("env", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == [
            "SWITCHBOARD_ACCOUNT", "SWITCHBOARD_ACCOUNT_NAME", "SWITCHBOARD_SESSION", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
            "GIT_COMMITTER_EMAIL",
        ])
        #expect(object["SWITCHBOARD_ACCOUNT"] as? String == String(ada.rawValue))
        #expect(!plain.stdout.contains("SECRET"))
        let withTokens = await cli.run("env", "--json", "--tokens", "--provider", "github")
        #expect(withTokens.status == 0, "\(withTokens.stderr)")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(withTokens.stdout.utf8)) as? [String: Any])
        #expect(tokens["GH_TOKEN"] as? String == "gho_SECRETaccess")
        #expect(tokens["SWITCHBOARD_DEMO_TOKEN"] is NSNull)
    }

    @Test("exec: the variables in the command's environment only, stale ones removed, its status passed through")
    func exec() async throws {
        let cli = CLI()
        let marker = cli.folder.file("ran")
        #expect(await cli.run("exec", "--", "touch", marker).status == 16)  // acting as nobody: not run
        #expect(!FileManager.default.fileExists(atPath: marker))
        let (ada, _) = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let env = try await cli.spawn("exec", "--provider", "github", "--", "env", environment: ["GITLAB_TOKEN": "stale", "KEPT": "yes"])
        #expect(env.status == 0, "\(env.stderr)")
        let lines = Set(env.stdout.split(separator: "\n").map(String.init))
        #expect(lines.isSuperset(of: ["SWITCHBOARD_ACCOUNT=\(ada.rawValue)", "SWITCHBOARD_ACCOUNT_NAME=Ada Lovelace",
                                      "SWITCHBOARD_SESSION=tty-test", "GH_TOKEN=gho_SECRETaccess", "KEPT=yes"]))
        #expect(!env.stdout.contains("GITLAB_TOKEN"))

        #expect(try await cli.spawn("exec", "--provider", "github", "--", "sh", "-c", "exit 7").status == 7)
        #expect(try await cli.spawn("exec", "--provider", "github", "--", "sh", "-c", "kill -TERM $$").status == 128 + SIGTERM)
        #expect(try await cli.spawn("exec", "--provider", "github", "--", cli.folder.file("no-such-command")).status == 127)
        // Without --provider every identity's token is needed; Google's has none stored.
        #expect(await cli.run("exec", "--", "true").status == 17)

        // Neither the command's arguments nor switchboard's hold the token.
        let argv = try await cli.spawn("exec", "--provider", "github", "--", "sh", "-c",
                               "tr '\\0' ' ' < /proc/$$/cmdline; echo; tr '\\0' ' ' < /proc/$PPID/cmdline; echo; test -n \"$GH_TOKEN\" && echo has-token")
        #expect(argv.status == 0, "\(argv.stderr)")
        #expect(argv.stdout.contains("exec --provider github") && argv.stdout.contains("has-token"))
        #expect(!argv.stdout.contains("SECRET"))
    }

    @Test("exec passes SIGTERM on to the command and exits as it did")
    func execForwardsTerminate() async throws {
        let cli = CLI()
        _ = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let running = try LiveProcess(builtProduct("switchboard"), ["exec", "--provider", "github", "--", "sh", "-c", "echo ready; exec sleep 30"],
                                      environment: ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "tty-test"])
        #expect(await running.line(containing: "ready") != nil)
        running.terminate()
        #expect(await running.exitStatus(within: 10) == 128 + SIGTERM)
        #expect(await cli.run("env", "--provider", "github").status == 64)
    }
}

/// The path of a shell on PATH, or nil.
private func shellPath(_ name: String) -> String? {
    for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
        return "\(folder)/\(name)"
    }
    return nil
}
