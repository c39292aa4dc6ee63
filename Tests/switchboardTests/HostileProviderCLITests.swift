import Foundation
import Synchronization
import Testing
import TestSupport
import SwitchboardCore

/// What a hostile provider puts in every field: a window-title change, a
/// screen clear, bidirectional overrides and isolates, C1 controls, DEL, NUL.
private let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}\u{2066}\u{200F}\u{061C}\u{85}\u{9B}31m\u{7F}\u{0}"

/// An OpenID Connect issuer on loopback (no id_token: who signed in comes
/// from userinfo) whose every answer carries `hostile`.
private final class HostileIssuer: Sendable {
    /// What the server's answers depend on.
    final class State: Sendable {
        /// Whether the token endpoint approves the device code, or refuses it with a hostile error.
        let approves = Atomic<Bool>(false)
        let signIns = Atomic<Int>(0)
        let base = Mutex<String>("")
    }

    let server: FaultServer
    let state = State()

    init() throws {
        let state = state
        server = try FaultServer { request in
            let root = state.base.withLock { $0 }
            func json(_ status: Int, _ object: [String: Any]) -> FaultServer.Action {
                FaultServer.response(status, "application/json", (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
            }
            let error: [String: Any] = ["error": "bad\(hostile)code", "error_description": "described\(hostile)here"]
            switch request.path {
            case "/.well-known/openid-configuration":
                return json(200, ["issuer": root, "device_authorization_endpoint": root + "/device", "token_endpoint": root + "/token",
                                  "userinfo_endpoint": root + "/userinfo", "revocation_endpoint": root + "/revoke"])
            case "/device":
                return json(200, ["device_code": "dc", "user_code": "WDJB\(hostile)-MJHT", "verification_uri": root + "/verify",
                                  "verification_uri_complete": root + "/verify?code=\(hostile)", "expires_in": 600, "interval": 0])
            case "/token" where request.body.contains("refresh_token"):
                return json(400, error)
            case "/token" where state.approves.load(ordering: .relaxed):
                return json(200, ["access_token": "at", "refresh_token": "rt", "token_type": "Bearer", "expires_in": 1])
            case "/token":
                return json(400, error)
            case "/userinfo":
                let n = state.signIns.add(1, ordering: .relaxed).newValue
                return json(200, ["sub": "hostile-\(n)", "name": "Mallory\(hostile)Evil", "email": "m\(hostile)@evil.test", "email_verified": true])
            default:
                return json(400, error)
            }
        }
        state.base.withLock { $0 = server.baseURL.absoluteString }
    }
}

/// Fails the test for any control or bidirectional character, other than the
/// newlines and tabs the program writes itself.
private func expectClean(_ text: String, _ label: String, allowingLines: Bool = true) {
    let allowed: Set<UInt32> = allowingLines ? [0x0A, 0x09] : []
    let bad = text.unicodeScalars.filter { $0.isTerminalControl && !allowed.contains($0.value) }
    #expect(bad.isEmpty, "\(label) wrote U+\(bad.map { String($0.value, radix: 16) }.joined(separator: ", U+"))")
}

@Suite("A hostile provider's text never reaches the terminal raw")
struct HostileProviderCLITests {
    @Test("sign-in, accounts, status, status --check and disconnect, human and --json")
    func everyCommand() async throws {
        let issuer = try HostileIssuer()
        defer { issuer.server.stop() }
        let cli = CLI()
        let config = cli.folder.file("config.toml")
        try "[providers.evil]\nkind = \"oidc\"\nissuer = \"\(issuer.server.baseURL.absoluteString)\"\nclient_id = \"c\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["SWITCHBOARD_CONFIG": config]
        func run(_ arguments: String...) async -> ProcessResult {
            await TestIO(environment: cli.environment(environment)).run(arguments)
        }

        // Refused with a hostile error code and description.
        let refused = await run("sign-in", "evil")
        #expect(refused.status == 13, "\(refused.stderr)")
        #expect(refused.stdout.contains("WDJB-MJHT") && refused.stdout.contains("bad") && refused.stdout.contains("described"))
        let refusedJSON = await run("sign-in", "evil", "--json")
        #expect(refusedJSON.status == 13)

        // Approved: the name, email and everything else from userinfo is hostile.
        issuer.state.approves.store(true, ordering: .relaxed)
        let approved = await run("sign-in", "evil")
        #expect(approved.status == 0, "\(approved.stdout)\(approved.stderr)")
        #expect(approved.stdout.contains("Welcome, Mallory"))
        let approvedJSON = await run("sign-in", "evil", "--json", "--on-conflict", "switch")
        #expect(approvedJSON.status == 0, "\(approvedJSON.stderr)")

        let human = [
            ("sign-in refused", refused), ("sign-in approved", approved), ("accounts", await run("accounts")),
            ("status", await run("status")), ("status --check", await run("status", "--check")),
            ("disconnect", await run("disconnect", "evil:hostile-1")),
        ]
        let check = human[4].1
        #expect(check.stdout.contains("bad") && check.stdout.contains("described"), "\(check.stdout)")
        #expect(human[5].1.stdout.contains("Could not revoke access at evil"), "\(human[5].1.stdout)")
        for (label, result) in human {
            expectClean(result.stdout, "\(label) (stdout)")
            expectClean(result.stderr, "\(label) (stderr)")
        }

        let accounts = await run("accounts", "--json")
        let json = [
            ("sign-in --json refused", refusedJSON), ("sign-in --json approved", approvedJSON), ("accounts --json", accounts),
            ("status --check --json", await run("status", "--check", "--json")), ("disconnect --json", await run("disconnect", "evil:hostile-2", "--json")),
        ]
        for (label, result) in json {
            // One JSON document per line: no raw control characters at all, newlines between lines only.
            for line in result.stdout.split(separator: "\n") {
                expectClean(String(line), "\(label) (stdout)", allowingLines: false)
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(label): \(line)")
            }
            expectClean(result.stderr, "\(label) (stderr)")
        }
        // Escaped, not lost: the JSON still says what the provider said (names keep their bidirectional marks).
        let list = try #require(try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
        let name = try #require(list.first?["name"] as? String)
        #expect(name.unicodeScalars.contains("\u{202E}") && name.hasPrefix("Mallory"))
        #expect(accounts.stdout.contains(#"\u202e"#))
    }

    @Test("a config error quoting a key with an escape sequence, or a secret under kind, prints neither")
    func configErrors() async throws {
        let cli = CLI()
        let config = cli.folder.file("config.toml")
        for text in ["[providers.\"\\u001b]0;pwned\\u0007x\"]\nkind = \"oidc\"\n", "[providers.work]\nkind = \"GOCSPX-pastedSECRET\\u001b[2J\"\n"] {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let result = await cli.run("providers", environment: ["SWITCHBOARD_CONFIG": config])
            #expect(result.status == 6, "\(result.stderr)")
            #expect(result.stderr.contains("config.toml:"), "\(result.stderr)")
            #expect(!result.stderr.contains("SECRET"))
            expectClean(result.stderr, "providers with \(text.debugDescription)")
        }
    }
}
