import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// Answers from a table of URLs, with no network at all; anything else is unreachable.
struct CannedTransport: HTTPTransport {
    let answers: [String: String]

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let body = answers[request.url.absoluteString] else { throw .unreachable(host: request.url.host ?? "", detail: "not canned") }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}

/// A discovery document for `issuer` with `overrides` replacing endpoints.
func discovery(_ issuer: String, _ overrides: [String: String] = [:]) -> String {
    var document = [
        "issuer": issuer, "device_authorization_endpoint": issuer + "/device", "token_endpoint": issuer + "/token",
        "userinfo_endpoint": issuer + "/userinfo", "jwks_uri": issuer + "/jwks", "revocation_endpoint": issuer + "/revoke",
    ]
    document.merge(overrides) { $1 }
    return String(decoding: try! JSONSerialization.data(withJSONObject: document), as: UTF8.self)
}

@Suite("Plain http only to loopback, judged by the parsed host, for every URL, before any connection")
struct EndpointPolicyTests {
    @Test("loopback hosts", arguments: ["127.0.0.1", "127.1.2.3", "127.255.255.255", "localhost", "LOCALHOST", "::1", "[::1]"])
    func loopback(host: String) { #expect(EndpointPolicy.isLoopback(host)) }

    @Test("hosts that only look like loopback", arguments: [
        "127.0.0.1.nip.io", "127.evil.example", "127.0.0.256", "127.0.0", "127.0.0.1.", "localhost.evil.example", "128.0.0.1", "::2", "", "127.0.0.-1",
    ])
    func notLoopback(host: String) { #expect(!EndpointPolicy.isLoopback(host)) }

    @Test("http to anything but loopback is refused with a message naming the URL", arguments: [
        "http://127.0.0.1.nip.io", "http://127.0.0.1.nip.io:8628/token", "http://127.0.0.1@evil.example/", "http://localhost.evil.example", "ftp://127.0.0.1/x",
    ])
    func refused(text: String) throws {
        let url = try #require(URL(string: text))
        let problem = try #require(EndpointPolicy.problem(with: url, as: "the token endpoint"))
        #expect(problem.contains(text) && problem.hasPrefix("the token endpoint"))
    }

    @Test("https anywhere, http on loopback", arguments: ["https://login.example.com", "http://127.0.0.1:8628", "http://localhost/x", "http://[::1]:80/"])
    func allowed(text: String) throws {
        #expect(EndpointPolicy.problem(with: try #require(URL(string: text)), as: "x") == nil)
    }

    @Test("a refused issuer: no request at all")
    func refusedIssuer() async throws {
        let transport = RecordingTransport(CannedTransport(answers: [:]), clock: ManualClock())
        let settings = ProviderSettings(id: "x", kind: .oidc, clientID: "c", issuer: URL(string: "http://127.0.0.1.nip.io")!)
        await #expect(throws: FlowFailure.configuration("x's URL http://127.0.0.1.nip.io must be https (plain http only on 127.0.0.1, ::1 or localhost)")) {
            _ = try await ResolvedProvider.resolve(settings, transport: transport)
        }
        #expect(transport.times("").isEmpty)
    }

    @Test("a refused endpoint from discovery: resolving fails naming it, and only discovery was asked",
          arguments: ["device_authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint"])
    func refusedFromDiscovery(key: String) async throws {
        let issuer = "https://login.example.com"
        let bad = "http://127.0.0.1.nip.io/\(key)"
        let transport = RecordingTransport(
            CannedTransport(answers: [issuer + "/.well-known/openid-configuration": discovery(issuer, [key: bad])]), clock: ManualClock())
        let settings = ProviderSettings(id: "work", kind: .oidc, clientID: "c", issuer: URL(string: issuer)!)
        do {
            _ = try await ResolvedProvider.resolve(settings, transport: transport)
            Issue.record("\(bad) was accepted")
        } catch {
            guard case .configuration(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains(bad))
        }
        #expect(transport.times("").count == 1 && transport.times("/.well-known/openid-configuration").count == 1)
    }

    @Test("a refused configured device endpoint: no request at all")
    func refusedConfiguredEndpoint() async throws {
        let transport = RecordingTransport(CannedTransport(answers: [:]), clock: ManualClock())
        let settings = ProviderSettings(
            id: "work", kind: .oidc, clientID: "c", issuer: URL(string: "https://login.example.com")!,
            deviceAuthorizationEndpoint: URL(string: "http://evil.example/device")!)
        await #expect(throws: FlowFailure.self) { _ = try await ResolvedProvider.resolve(settings, transport: transport) }
        #expect(transport.times("").isEmpty)
    }
}
