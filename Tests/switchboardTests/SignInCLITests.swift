import DemoProvider
import Foundation
import Testing
import TestBasics
import TestSupport
import Store
import SwitchboardCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `switchboard demo serve` in one process, the CLI in others, as a person would.
final class DemoCLI: Sendable {
    let cli = CLI()
    let server: LiveProcess
    let url: String
    let config: String

    init(serveArguments: [String] = []) async throws {
        server = try LiveProcess(builtProduct("switchboard"), ["demo", "serve", "--port", "0"] + serveArguments)
        let banner = try #require(await server.line(containing: "Demo provider at"))
        url = String(banner.split(separator: " ").last!)
        config = cli.folder.file("config.toml")
        try "[providers.demo]\nissuer = \"\(url)\"\n\n[providers.work]\nkind = \"oidc\"\nissuer = \"https://login.example.com\"\nclient_id = \"c\"\nclient_secret = \"CLIENT-SECRET-VALUE\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] { ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "tty-test", "SWITCHBOARD_CONFIG": config] }

    func signIn(_ arguments: [String] = []) throws -> LiveProcess {
        try LiveProcess(builtProduct("switchboard"), ["sign-in", "demo", "--json"] + arguments, environment: environment)
    }

    /// The code from the first JSON line of a running sign-in.
    func code(of signIn: LiveProcess) async throws -> String {
        let line = try #require(await signIn.line(containing: "\"event\":\"code\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["event", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval"])
        return try #require(object["user_code"] as? String)
    }

    func approve(_ code: String, _ extra: [String] = []) async throws -> ProcessResult {
        try await runProcess(builtProduct("switchboard"), ["demo", "approve", code, "--server", url] + extra)
    }

    /// Makes the code expire now, through the server's JSON API.
    func expire(_ code: String) async throws {
        var request = URLRequest(url: URL(string: url + "/api/expire")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["user_code": code])
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    func outcome(of signIn: LiveProcess) async throws -> [String: Any] {
        let line = try #require(await signIn.line(containing: "\"event\":\"outcome\""))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func stop() async {
        server.interrupt()
        _ = await server.exitStatus(within: 5)
    }
}

/// A demo provider in this process and sign-ins run in it too; codes
/// approved or denied with `switchboard demo approve`, also in this process.
final class LocalDemo: Sendable {
    let cli = CLI()
    let server: DemoServer
    let url: String
    let config: String

    init(_ settings: DemoSettings = DemoSettings(), publicAccess: PublicAccess? = nil) async throws {
        server = DemoServer(settings: settings)
        url = try await server.start(port: 0, publicAccess: publicAccess).absoluteString
        config = cli.folder.file("config.toml")
        try "[providers.demo]\nissuer = \"\(url)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] { ["SWITCHBOARD_CONFIG": config] }

    func signIn() -> RunningCommand { cli.start("sign-in", "demo", "--json", environment: environment) }

    func run(_ arguments: String..., input: String? = nil) async -> ProcessResult {
        await TestIO(environment: cli.environment(environment), input: input).run(arguments)
    }

    /// The code from the first JSON line of a running sign-in.
    func code(of signIn: RunningCommand) async throws -> String {
        let line = try #require(await signIn.line(containing: "\"event\":\"code\""), "\(signIn.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["user_code"] as? String)
    }

    func approve(_ code: String, _ extra: [String] = []) async -> ProcessResult {
        await TestIO(environment: [:]).run(["demo", "approve", code, "--server", url] + extra)
    }

    func outcome(of signIn: RunningCommand) async throws -> [String: Any] {
        let line = try #require(await signIn.line(containing: "\"event\":\"outcome\""), "\(signIn.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func stop() async { await server.stop() }
}

@Suite("sign-in from the command line against `demo serve`")
struct SignInCLITests {
    @Test("serve, sign in, approve from another terminal: the new account is active; no secret in any output")
    func endToEnd() async throws {
        let demo = try await DemoCLI(serveArguments: ["--interval", "1"])
        let signIn = try demo.signIn()
        let code = try await demo.code(of: signIn)
        let approval = try await demo.approve(code, ["--as", "zoe"])
        #expect(approval.status == 0, "\(approval.stderr)")
        let outcome = try await demo.outcome(of: signIn)
        #expect(await signIn.exitStatus() == 0)
        #expect(outcome["outcome"] as? String == "approved")
        #expect(outcome["isNew"] as? Bool == true)
        #expect((outcome["account"] as? [String: Any])?["name"] as? String == "Zoë Ångström")
        #expect(outcome["error"] is NSNull)

        let accounts = try await runProcess(builtProduct("switchboard"), ["accounts", "--json"], environment: demo.environment)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1 && list[0]["active"] as? Bool == true && list[0]["name"] as? String == "Zoë Ångström")

        // Scan everything printed for the tokens now in the store, and the client secret.
        let database = try AppDatabase(testing: demo.cli.path)
        let tokens = try #require(try database.credential(for: Identity(provider: "demo", subject: "1994")))
        let providers = try await runProcess(builtProduct("switchboard"), ["providers", "--json"], environment: demo.environment)
        let status = try await runProcess(builtProduct("switchboard"), ["status", "--check", "--json"], environment: demo.environment)
        #expect(status.stdout.contains("\"state\":\"authorized\""))
        let everything = signIn.lines.joined() + signIn.stderr + accounts.stdout + accounts.stderr + providers.stdout
            + providers.stderr + status.stdout + status.stderr + approval.stdout + approval.stderr + demo.server.lines.joined()
        for secret in [tokens.accessToken, tokens.refreshToken!, tokens.idToken!, "CLIENT-SECRET-VALUE"] {
            #expect(!everything.contains(secret))
        }
        #expect(providers.stdout.contains("\"hasClientSecret\":true"))
        await demo.stop()
    }

    @Test("providers --resolve asks each ready provider for its metadata: every endpoint, and where it came from")
    func providersResolved() async throws {
        let demo = try await LocalDemo(DemoSettings(interval: 1))
        let listed = try await runProcess(builtProduct("switchboard"), ["providers", "--resolve", "--json"], environment: demo.environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        let providers = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let endpoints = try #require(providers.first { $0["id"] as? String == "demo" }?["endpoints"] as? [[String: Any]])
        let from = Dictionary(uniqueKeysWithValues: endpoints.compactMap { e in (e["name"] as? String).map { ($0, e["from"] as? String ?? "") } })
        #expect(from["token_endpoint"] == "OpenID discovery" && from["revocation_endpoint"] == "OpenID discovery", "\(from)")
        let plain = try await runProcess(builtProduct("switchboard"), ["providers", "--resolve"], environment: demo.environment)
        #expect(plain.stdout.contains("token_endpoint") && plain.stdout.contains("(OpenID discovery)"), "\(plain.stdout)")
        await demo.stop()
    }

    @Test("a sign-in approved as a person whose account has a PIN makes nobody active (exit 7, the sign-in kept); a switch with the PIN finishes it")
    func signInToProtected() async throws {
        let demo = try await LocalDemo(DemoSettings(interval: 1))
        let first = demo.signIn()
        _ = await demo.approve(try await demo.code(of: first), ["--as", "ada"])
        #expect(await first.exitStatus() == 0)
        #expect(await demo.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        #expect(await demo.run("sign-out").status == 0)
        let second = demo.signIn()
        _ = await demo.approve(try await demo.code(of: second), ["--as", "ada"])
        #expect(await second.exitStatus() == 7, "\(second.lines)")
        #expect(second.stderr.contains("has a PIN") && second.stderr.contains("switchboard switch"), "\(second.stderr)")
        let status = await demo.run("status", "--json")
        #expect(status.stdout.contains("\"active\":null"), "\(status.stdout)")
        let switched = await demo.run("switch", "Ada Lovelace", "--pin-stdin", input: "2468\n")
        #expect(switched.status == 0, "\(switched.stderr)")
        await demo.stop()
    }

    @Test("denied exits 10; an expired code exits 11")
    func deniedAndExpired() async throws {
        let demo = try await LocalDemo(DemoSettings(interval: 1))
        let denied = demo.signIn()
        _ = await demo.approve(try await demo.code(of: denied), ["--deny"])
        #expect(try await demo.outcome(of: denied)["outcome"] as? String == "denied")
        #expect(await denied.exitStatus() == 10)
        await demo.stop()

        let shortLived = try await LocalDemo(DemoSettings(expiresIn: 10, interval: 1))
        let expired = shortLived.signIn()
        try await shortLived.server.expire(userCode: try await shortLived.code(of: expired))
        #expect(try await shortLived.outcome(of: expired)["outcome"] as? String == "expired")
        #expect(await expired.exitStatus() == 11)
        await shortLived.stop()
    }

    @Test("Ctrl-C cancels cleanly: outcome cancelled, exit 12, nothing stored")
    func interrupt() async throws {
        let demo = try await DemoCLI()
        let signIn = try demo.signIn()
        _ = try await demo.code(of: signIn)
        signIn.interrupt()
        #expect(try await demo.outcome(of: signIn)["outcome"] as? String == "cancelled")
        #expect(await signIn.exitStatus(within: 5) == 12)
        #expect(try AppDatabase(testing: demo.cli.path).accounts().isEmpty)
        await demo.stop()
    }

    @Test("with no demo provider running, sign-in starts one of its own")
    func startsItsOwnDemo() async throws {
        let cli = CLI()
        // A port that was free a moment ago, so nothing answers there.
        let probe = try FaultServer { _ in .reset }
        let port = probe.port
        probe.stop()
        let config = cli.folder.file("config.toml")
        try "[providers.demo]\nissuer = \"http://127.0.0.1:\(port)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        // As a process: the demo provider it starts is its own, in its own process, as a person's would be.
        let signIn = try LiveProcess(builtProduct("switchboard"), ["sign-in", "demo", "--json"],
                                     environment: ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "s", "SWITCHBOARD_CONFIG": config])
        let line = try #require(await signIn.line(containing: "\"event\":\"code\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let uri = try #require(object["verification_uri"] as? String)
        let code = try #require(object["user_code"] as? String)
        let demoPort = try #require(URL(string: uri)?.port)
        let approval = await TestIO(environment: [:]).run(["demo", "approve", code, "--server", "http://127.0.0.1:\(demoPort)"])
        #expect(approval.status == 0, "\(approval.stderr)")
        #expect(await signIn.exitStatus() == 0)
        #expect(signIn.stderr.contains("started one at"))
    }
}

@Suite("sign-in --trace")
struct SignInTraceCLITests {
    @Test("--trace prints each exchange to standard error as it happens, with step, status and time; no 8 bytes in a row of a token or the client secret")
    func trace() async throws {
        let demo = try await LocalDemo(DemoSettings(interval: 1))
        try "[providers.demo]\nissuer = \"\(demo.url)\"\nclient_secret = \"CLIENT-SECRET-VALUE-7\"\n"
            .write(toFile: demo.config, atomically: true, encoding: .utf8)
        chmod(demo.config, 0o600)
        let signIn = demo.cli.start("sign-in", "demo", "--json", "--trace", environment: demo.environment)
        let code = try await demo.code(of: signIn)
        try await waitUntil("the first poll shows in the trace", within: 30) { signIn.stderr.contains("poll 1  HTTP 400 authorization_pending") }
        #expect(await demo.approve(code, ["--as", "grace"]).status == 0)
        #expect(try await demo.outcome(of: signIn)["outcome"] as? String == "approved")
        #expect(await signIn.exitStatus() == 0)
        let trace = signIn.stderr
        let headlines = trace.split(separator: "\n").filter { !$0.hasPrefix("trace:     ") }
        #expect(headlines.count == 6, "\(trace)")
        for (line, expected) in zip(headlines, [
            "OIDC Discovery §4 discovery  HTTP 200 OK", "RFC 8628 §3.1–3.2 device authorization  HTTP 200 OK",
            "RFC 8628 §3.4–3.5 poll 1  HTTP 400 authorization_pending", "RFC 8628 §3.4–3.5 poll 2  HTTP 200 OK: tokens",
            "OIDC Core §10.1 signing keys  HTTP 200 OK", "OIDC Core §3.1.3.7 id_token  checked: signature, iss, aud, exp",
        ]) {
            #expect(line.hasPrefix("trace: +") && line.hasSuffix(expected), "\(line)")
        }
        #expect(trace.contains("user_code=\(code)") && trace.contains("name=Grace Hopper"))
        #expect(signIn.lines.allSatisfy { !$0.contains("trace:") }, "the trace goes to standard error only")

        let database = try AppDatabase(testing: demo.cli.path)
        let tokens = try #require(try database.credential(for: Identity(provider: "demo", subject: "1906")))
        let secrets = [tokens.accessToken, tokens.refreshToken!, tokens.idToken!, "CLIENT-SECRET-VALUE-7"]
        #expect(shownPieces(of: secrets, in: [trace, signIn.lines.joined(separator: "\n")]).isEmpty)
        await demo.stop()
    }
}
