import Foundation
import Testing
import TestSupport
@testable import DeviceFlow

/// An issuer on loopback whose discovery lists `supported` (or no
/// `scopes_supported` when nil), recording the device requests' bodies.
private func issuer(listing supported: [String]?) throws -> (FaultServer, Recorder<String>) {
    let bodies = Recorder<String>()
    let base = Recorder<String>()
    let server = try FaultServer { request in
        let root = base.all.first ?? ""
        if request.path.hasSuffix("/device") {
            bodies.add(request.body)
            return FaultServer.response(200, "application/json", #"{"device_code":"d","user_code":"U","verification_uri":"https://example.test/d","expires_in":60}"#)
        }
        var document: [String: Any] = ["issuer": root, "device_authorization_endpoint": root + "/device", "token_endpoint": root + "/token"]
        if let supported { document["scopes_supported"] = supported }
        return FaultServer.response(200, "application/json", try! JSONSerialization.data(withJSONObject: document))
    }
    base.add(server.baseURL.absoluteString)
    return (server, bodies)
}

@Suite("Default scopes follow what the server lists; given scopes are sent as given")
struct DefaultScopeTests {
    private func scopeSent(listing supported: [String]?, configured: [String]?) async throws -> String? {
        let (server, bodies) = try issuer(listing: supported)
        defer { server.stop() }
        let settings = ProviderSettings(id: "x", kind: .oidc, clientID: "c", issuer: server.baseURL, scopes: configured)
        let transport = URLSessionTransport(timeout: 2)
        let provider = try await ResolvedProvider.resolve(settings, transport: transport)
        _ = try await provider.makeFlow(transport: transport).requestCode()
        let body = try #require(bodies.all.first)
        return FormEncoding.decode(body)["scope"]
    }

    @Test("a server that lists openid alone is asked for openid alone")
    func onlyListed() async throws {
        #expect(try await scopeSent(listing: ["openid", "offline_access"], configured: nil) == "openid")
    }

    @Test("a server that lists none, or an empty list, is asked for every default")
    func noneListed() async throws {
        #expect(try await scopeSent(listing: nil, configured: nil) == "openid profile email")
        #expect(try await scopeSent(listing: [], configured: nil) == "openid profile email")
    }

    @Test("explicit scopes are sent as given, listed or not")
    func explicit() async throws {
        #expect(try await scopeSent(listing: ["openid"], configured: ["openid", "custom"]) == "openid custom")
    }
}
