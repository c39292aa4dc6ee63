import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// A device endpoint that answers well, and a token endpoint scripted per poll.
private func rig(
    device: FaultServer.Action = FaultServer.response(200, "application/json", #"{"device_code":"dc-secret","user_code":"WDJB-MJHT","verification_uri":"https://example.test/device","expires_in":60,"interval":5}"#),
    token: @escaping @Sendable (Int) -> FaultServer.Action
) throws -> (FaultServer, DeviceFlow, ManualClock) {
    let polls = Atomic<Int>(0)
    let server = try FaultServer { request in
        if request.path.hasSuffix("/device") { return device }
        return token(polls.add(1, ordering: .relaxed).newValue)
    }
    let clock = ManualClock()
    let flow = DeviceFlow(
        deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"),
        tokenEndpoint: server.baseURL.appendingPathComponent("token"),
        client: ClientCredentials(clientID: "c", clientSecret: "client-secret-value"), scopes: ["openid"],
        transport: URLSessionTransport(timeout: 2), clock: clock)
    return (server, flow, clock)
}

private let json = "application/json"
private let form = "application/x-www-form-urlencoded"

@Suite("Servers differ: handled by rule")
struct ServerDifferenceTests {
    @Test("errors arrive with HTTP 200 (GitHub, form-encoded), 400, 401, 403 or 404", arguments: [200, 400, 401, 403, 404])
    func errorStatuses(status: Int) async throws {
        let (server, flow, _) = try rig { poll in
            poll == 1 ? FaultServer.response(status, form, "error=authorization_pending")
                : FaultServer.response(status, json, #"{"error":"access_denied","error_description":"no"}"#)
        }
        defer { server.stop() }
        _ = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .denied)
    }

    @Test("authorization_declined means denied too")
    func declined() async throws {
        let (server, flow, _) = try rig { _ in FaultServer.response(400, json, #"{"error":"authorization_declined"}"#) }
        defer { server.stop() }
        _ = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .denied)
    }

    @Test("token_type in any letter case; form-encoded tokens; expires_in as a string", arguments: ["bearer", "BEARER", "Bearer"])
    func tokenTypeCase(type: String) async throws {
        let (server, flow, _) = try rig { _ in FaultServer.response(200, form, "access_token=at-1&token_type=\(type)&expires_in=3600&scope=openid") }
        defer { server.stop() }
        _ = try await flow.requestCode()
        guard case .approved(let tokens) = await flow.waitForApproval() else {
            Issue.record("expected approval")
            return
        }
        #expect(tokens.tokenType == type && tokens.idToken == nil && tokens.expiresAt != nil)
    }

    @Test("a token type other than bearer is refused with a clear message")
    func otherTokenType() async throws {
        let (server, flow, _) = try rig { _ in FaultServer.response(200, json, #"{"access_token":"x","token_type":"mac"}"#) }
        defer { server.stop() }
        _ = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .failed(.invalidResponse("unsupported token_type mac")))
    }

    @Test("an unknown error stops the flow and reports the server's words")
    func otherError() async throws {
        let (server, flow, _) = try rig { _ in FaultServer.response(400, json, #"{"error":"invalid_client","error_description":"unknown client\u001b[2J"}"#) }
        defer { server.stop() }
        _ = try await flow.requestCode()
        let result = await flow.waitForApproval()
        #expect(result == .failed(.provider(OAuthError(code: "invalid_client", description: "unknown client\u{1B}[2J"))))
        #expect(!"\(result)".isEmpty)
        if case .failed(let failure) = result { #expect(!failure.description.contains("\u{1B}")) }
    }

    @Test("an HTML or empty answer without an OAuth error is reported as such", arguments: [
        ("text/html", "<html><body>Not here</body></html>", "HTML"), (nil, "", "empty"),
    ] as [(String?, String, String)])
    func notOAuth(type: String?, body: String, named: String) async throws {
        let (server, flow, _) = try rig { _ in FaultServer.response(404, type, body) }
        defer { server.stop() }
        _ = try await flow.requestCode()
        guard case .failed(.invalidResponse(let detail)) = await flow.waitForApproval() else {
            Issue.record("expected invalidResponse")
            return
        }
        #expect(detail.contains("HTTP 404") && detail.contains(named))
    }

    @Test("Google's verification_url, a code without a dash, no interval (5 s)")
    func googleShape() async throws {
        let device = FaultServer.response(200, json, #"{"device_code":"d","user_code":"WDJBMJHT","verification_url":"https://www.google.com/device","expires_in":"1800"}"#)
        let (server, flow, _) = try rig(device: device) { _ in FaultServer.response(200, json, #"{"access_token":"a","token_type":"Bearer"}"#) }
        defer { server.stop() }
        let code = try await flow.requestCode()
        #expect(code.verificationURI.absoluteString == "https://www.google.com/device")
        #expect(code.userCode == "WDJBMJHT" && code.interval == 5 && code.expiresIn == 1800)
        #expect(code.qrPayload == "https://www.google.com/device")
    }

    @Test("responses over 1 MiB are refused, as the provider's fault")
    func tooLarge() async throws {
        let huge = FaultServer.response(200, json, Data(repeating: 0x20, count: 2 << 20))
        let (server, flow, _) = try rig(device: huge) { _ in .reset }
        defer { server.stop() }
        await #expect(throws: FlowFailure.invalidResponse("127.0.0.1 sent a response over 1024 KiB; refused")) { try await flow.requestCode() }
    }

    @Test("a reset connection while asking for a code is reported offline")
    func reset() async throws {
        let (server, flow, _) = try rig(device: .reset) { _ in .reset }
        defer { server.stop() }
        do {
            _ = try await flow.requestCode()
            Issue.record("expected a failure")
        } catch {
            if case .offline = error {} else { Issue.record("expected offline, got \(error)") }
        }
    }

    @Test("a redirect never carries the client secret or device code to another host")
    func redirectsRefused() async throws {
        let thief = Recorder<String>()
        let elsewhere = try FaultServer { request in
            thief.add(request.body)
            return FaultServer.response(200, json, #"{"access_token":"a","token_type":"Bearer"}"#)
        }
        defer { elsewhere.stop() }
        let (server, flow, _) = try rig { _ in
            FaultServer.response(307, nil, "", headers: ["Location: http://127.0.0.1:\(elsewhere.port)/steal"])
        }
        defer { server.stop() }
        _ = try await flow.requestCode()
        let refused = TransportError.redirectRefused(from: "http://127.0.0.1:\(server.port)", to: "http://127.0.0.1:\(elsewhere.port)")
        #expect(await flow.waitForApproval() == .failed(.invalidResponse(refused.description)))
        #expect(thief.all.isEmpty)
    }

    @Test("network failures while polling back off exponentially and keep the deadline")
    func backOff() async throws {
        let device = FaultServer.response(200, json, #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":100,"interval":5}"#)
        let server = try FaultServer { request in request.path.hasSuffix("/device") ? device : .reset }
        defer { server.stop() }
        let clock = ManualClock()
        let transport = RecordingTransport(URLSessionTransport(timeout: 2), clock: clock)
        let recorded = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"),
            tokenEndpoint: server.baseURL.appendingPathComponent("token"), client: ClientCredentials(clientID: "c"),
            scopes: [], transport: transport, clock: clock)
        let code = try await recorded.requestCode()
        #expect(await recorded.waitForApproval() == .expired)
        let offsets = transport.times("/token").map { Int($0.timeIntervalSince(code.issuedAt).rounded()) }
        #expect(offsets == [5, 15, 35, 75])
    }

    @Test("a server that never answers: each poll times out, backs off, and the deadline is kept")
    func neverAnswers() async throws {
        let device = FaultServer.response(200, json, #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":4,"interval":1}"#)
        let server = try FaultServer { request in request.path.hasSuffix("/device") ? device : .hang }
        defer { server.stop() }
        // On the manual clock the schedule is exact: polls at +1 and +3, then
        // the next try (+7) would pass the deadline (+4): expired.
        let clock = ManualClock()
        let transport = RecordingTransport(URLSessionTransport(timeout: 2), clock: clock)
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"),
            tokenEndpoint: server.baseURL.appendingPathComponent("token"), client: ClientCredentials(clientID: "c"),
            scopes: [], transport: transport, clock: clock)
        let code = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .expired)
        #expect(transport.times("/token").map { Int($0.timeIntervalSince(code.issuedAt).rounded()) } == [1, 3])
        #expect(transport.inFlight == 0)
    }

    @Test("a server that never answers cannot hold the flow past its deadline: a poll's time limit ends there, not at the transport's",
          .timeLimit(.minutes(1)))
    func neverAnswersPastDeadline() async throws {
        // The transport would wait 180 s. On the manual clock, the poll at +1
        // may take only the 1 s left before the deadline (+2); once it has
        // timed out, the next try (+3) would pass the deadline: expired, at
        // the deadline. Were the poll's limit not honoured, it would take
        // 180 s and the time limit above would end the test.
        let rig = try HangingTokenRig(expiresIn: 2, interval: 1, transportTimeout: 180)
        defer { rig.server.stop() }
        let (clock, watched, transport, flow) = (rig.clock, rig.watched, rig.transport, rig.flow)
        let code = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .expired)
        #expect(transport.times("/token").map { Int($0.timeIntervalSince(code.issuedAt).rounded()) } == [1])
        #expect(watched.limits("/token") == [1], "the poll's own time limit: from +1 to the deadline")
        #expect(watched.failures == [.timedOut(host: "127.0.0.1")])
        #expect(clock.now() == code.expiresAt, "expired at the deadline on the flow's clock")
        #expect(transport.inFlight == 0)
    }

    @Test("a device endpoint missing from discovery comes from configuration")
    func deviceEndpointFromConfiguration() async throws {
        // A server whose discovery names itself but has no device endpoint.
        let box = Mutex<URL?>(nil)
        let issuer = try FaultServer { request in
            let base = box.withLock { $0 }!.absoluteString
            if request.path == "/.well-known/openid-configuration" {
                return FaultServer.response(200, json, #"{"issuer":"\#(base)","token_endpoint":"\#(base)/token"}"#)
            }
            return .reset
        }
        box.withLock { $0 = issuer.baseURL }
        defer { issuer.stop() }
        var settings = ProviderSettings(id: "work", kind: .oidc, clientID: "c", issuer: issuer.baseURL)
        await #expect(throws: FlowFailure.self) { try await ResolvedProvider.resolve(settings, transport: URLSessionTransport(timeout: 2)) }
        settings.deviceAuthorizationEndpoint = URL(string: "https://login.example.test/device")
        let resolved = try await ResolvedProvider.resolve(settings, transport: URLSessionTransport(timeout: 2))
        #expect(resolved.endpoints.deviceAuthorization == settings.deviceAuthorizationEndpoint)
        #expect(resolved.endpoints.token.absoluteString == issuer.baseURL.absoluteString + "/token")
    }

    @Test("no id_token: the identity comes from userinfo's sub")
    func userinfoFallback() async throws {
        let server = try FaultServer { request in
            request.path == "/userinfo"
                ? FaultServer.response(200, json, #"{"sub":"u-77","name":"Grace","email":"g@x.test","email_verified":true}"#)
                : FaultServer.response(404, nil, "")
        }
        defer { server.stop() }
        let resolver = IdentityResolver(
            provider: "work", endpoints: ProviderEndpoints(deviceAuthorization: nil, token: server.baseURL, userinfo: server.baseURL.appendingPathComponent("userinfo")),
            clientID: "c", transport: URLSessionTransport(timeout: 2))
        let identity = try await resolver.identity(for: TokenSet(accessToken: "a"))
        #expect(identity.identity == Identity(provider: "work", subject: "u-77"))
        #expect(identity.displayName == "Grace" && identity.emailVerified && identity.login == nil)
    }

    @Test("no OpenID Connect: the user API's numeric id (GitHub /user)")
    func userAPIFallback() async throws {
        let server = try FaultServer { _ in FaultServer.response(200, json, #"{"login":"octocat","id":583231,"name":null}"#) }
        defer { server.stop() }
        let resolver = IdentityResolver(
            provider: "github", endpoints: ProviderEndpoints(deviceAuthorization: nil, token: server.baseURL, userAPI: server.baseURL.appendingPathComponent("user")),
            clientID: "c", transport: URLSessionTransport(timeout: 2))
        let identity = try await resolver.identity(for: TokenSet(accessToken: "a"))
        #expect(identity.identity.subject == "583231" && identity.displayName == "octocat")
        #expect(identity.login == "octocat")
    }

    @Test("a login with white space or a control character is not kept (git is handed it as it is)")
    func hostileLogin() async throws {
        let server = try FaultServer { _ in FaultServer.response(200, json, #"{"login":"octo cat\u001b[2J","id":583231}"#) }
        defer { server.stop() }
        let resolver = IdentityResolver(
            provider: "github", endpoints: ProviderEndpoints(deviceAuthorization: nil, token: server.baseURL, userAPI: server.baseURL.appendingPathComponent("user")),
            clientID: "c", transport: URLSessionTransport(timeout: 2))
        #expect(try await resolver.identity(for: TokenSet(accessToken: "a")).login == nil)
    }
}
