import DeviceFlow
import Foundation
import Testing
import TestSupport
import Store
import SwitchboardCore

/// Two OpenID Connect issuers on one loopback host, at `/a` and `/b`, that
/// approve at once and both say the person is `same`; each issues its own
/// access token (`at-a`, `at-b`). Every request's path is recorded.
private func twoIssuers() throws -> (FaultServer, Recorder<String>) {
    let paths = Recorder<String>()
    let base = Recorder<String>()
    let server = try FaultServer { request in
        paths.add(request.path)
        let root = base.all.first ?? ""
        let issuer = request.path.hasPrefix("/b") ? "/b" : "/a"
        let body: [String: Any]
        switch request.path.dropFirst(2) {
        case "/.well-known/openid-configuration":
            body = ["issuer": root + issuer, "device_authorization_endpoint": root + issuer + "/device",
                    "token_endpoint": root + issuer + "/token", "userinfo_endpoint": root + issuer + "/userinfo"]
        case "/device":
            body = ["device_code": "d", "user_code": "WDJB-MJHT", "verification_uri": root + "/verify", "expires_in": 60, "interval": 1]
        case "/token":
            body = ["access_token": "at-\(issuer.dropFirst())", "token_type": "Bearer"]
        default:
            body = ["sub": "same", "name": "Same Person"]
        }
        return FaultServer.response(200, "application/json", try! JSONSerialization.data(withJSONObject: body))
    }
    base.add(server.baseURL.absoluteString)
    return (server, paths)
}

@Suite("sign-in --issuer: identities keyed by the whole issuer; URLs checked before any connection")
struct IssuerCLITests {
    @Test("two issuers on one host with the same sub are two identities, each with its own token")
    func twoIssuersOneHost() async throws {
        let (server, _) = try twoIssuers()
        defer { server.stop() }
        let cli = CLI()
        let root = server.baseURL.absoluteString
        for path in ["/a", "/b"] {
            let result = await cli.run("sign-in", "--issuer", root + path, "--client-id", "c", "--on-conflict", "cancel")
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        let database = try AppDatabase(testing: cli.path)
        let identities = try database.accounts().flatMap(\.identities).map(\.identity)
        let a = Identity(provider: ProviderID(root + "/a"), subject: "same"), b = Identity(provider: ProviderID(root + "/b"), subject: "same")
        #expect(Set(identities) == [a, b])
        #expect(try database.credential(for: a)?.accessToken == "at-a")
        #expect(try database.credential(for: b)?.accessToken == "at-b")
        // The printed form is accepted back.
        #expect(await cli.run("switch", "\(a)").status == 0)
    }

    @Test("--issuer and --device-endpoint that only look like loopback are refused, naming them, before any request", arguments: [
        ["--issuer", "http://127.0.0.1.nip.io"],
        ["--issuer", "SERVER", "--device-endpoint", "http://127.0.0.1.nip.io/device"],
        ["--issuer", "SERVER", "--device-endpoint", "http://evil.example/device"],
    ])
    func refusedBeforeAnyRequest(arguments: [String]) async throws {
        let (server, paths) = try twoIssuers()
        defer { server.stop() }
        let cli = CLI()
        let given = arguments.map { $0 == "SERVER" ? server.baseURL.absoluteString + "/a" : $0 }
        let result = await TestIO(environment: cli.environment(session: "s")).run(["sign-in"] + given + ["--client-id", "c"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(given[given.count - 1]) && result.stderr.contains("must be https"), "\(result.stderr)")
        #expect(paths.all.isEmpty)
    }

    @Test("demo approve --server is held to the same rule")
    func demoServerChecked() async throws {
        let result = await TestIO(environment: [:]).run(["demo", "approve", "WDJB-MJHT", "--server", "http://127.0.0.1.nip.io:8628"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("http://127.0.0.1.nip.io:8628 must be https"), "\(result.stderr)")
    }

    @Test("without --scope, only the default scopes the server lists are asked for; --scope is sent as given")
    func scopesTheServerLists() async throws {
        let base = Recorder<String>(), scopes = Recorder<String>()
        let server = try FaultServer { request in
            let root = base.all.first ?? ""
            let body: [String: Any]
            var status = 200
            switch request.path {
            case "/.well-known/openid-configuration":
                body = ["issuer": root, "device_authorization_endpoint": root + "/device", "token_endpoint": root + "/token",
                        "userinfo_endpoint": root + "/userinfo", "scopes_supported": ["openid", "offline_access"]]
            case "/device":
                let scope = FormEncoding.decode(request.body)["scope"] ?? ""
                scopes.add(scope)
                if scope.split(separator: " ").allSatisfy({ ["openid", "offline_access"].contains($0) }) {
                    body = ["device_code": "d", "user_code": "WDJB-MJHT", "verification_uri": root + "/verify", "expires_in": 60, "interval": 1]
                } else {
                    (status, body) = (400, ["error": "invalid_scope", "error_description": "unsupported scope"])
                }
            case "/token": body = ["access_token": "at", "token_type": "Bearer"]
            default: body = ["sub": "s-1"]
            }
            return FaultServer.response(status, "application/json", try! JSONSerialization.data(withJSONObject: body))
        }
        defer { server.stop() }
        base.add(server.baseURL.absoluteString)
        let cli = CLI()
        let plain = await cli.run("sign-in", "--issuer", server.baseURL.absoluteString, "--client-id", "c")
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        let given = await cli.run("sign-in", "--issuer", server.baseURL.absoluteString, "--client-id", "c", "--scope", "openid profile")
        #expect(given.status == 13 && given.stdout.contains("invalid_scope"), "\(given.stdout)")
        #expect(scopes.all == ["openid", "openid profile"])
    }
}
