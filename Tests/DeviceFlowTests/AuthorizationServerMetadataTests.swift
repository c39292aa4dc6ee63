import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// OpenID Connect discovery first, then RFC 8414's metadata for what it
/// lacks, then the configuration.
@Suite("Endpoints from RFC 8414's metadata where discovery lacks them")
struct AuthorizationServerMetadataTests {
    /// A server whose OpenID configuration lists no revocation endpoint, and
    /// whose RFC 8414 document (naming `stated` as its issuer) does.
    static func server(stated: @escaping @Sendable (String) -> String = { $0 }) throws -> FaultServer {
        let base = Mutex<String>("")
        let server = try FaultServer { request in
            let issuer = base.withLock { $0 }
            switch request.path {
            case "/.well-known/openid-configuration":
                return FaultServer.response(200, "application/json", """
                    {"issuer":"\(issuer)","token_endpoint":"\(issuer)/token","device_authorization_endpoint":"\(issuer)/device"}
                    """)
            case "/.well-known/oauth-authorization-server":
                return FaultServer.response(200, "application/json", """
                    {"issuer":"\(stated(issuer))","token_endpoint":"\(issuer)/token","revocation_endpoint":"\(issuer)/revoke-8414",
                     "token_endpoint_auth_methods_supported":["client_secret_post"]}
                    """)
            default: return FaultServer.response(404, nil, "")
            }
        }
        base.withLock { $0 = server.baseURL.absoluteString }
        return server
    }

    @Test("the revocation endpoint and the client authentication methods come from RFC 8414 when discovery lacks them")
    func filled() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let settings = ProviderSettings(id: "work", kind: .oidc, clientID: "c", clientSecret: "s3cret-value", issuer: server.baseURL)
        let provider = try await ResolvedProvider.resolve(settings, transport: URLSessionTransport(timeout: 5))
        #expect(provider.endpoints.revocation == server.baseURL.appendingPathComponent("revoke-8414"))
        #expect(provider.client.authentication == .post, "the only method its metadata lists")
        #expect(provider.endpoints.sources == [
            "device_authorization_endpoint": "OpenID discovery", "token_endpoint": "OpenID discovery", "revocation_endpoint": "RFC 8414 metadata",
        ])
    }

    @Test("a document naming another issuer is not used; the configuration's revocation_endpoint wins over both")
    func refusedAndOverridden() async throws {
        let server = try Self.server(stated: { _ in "https://elsewhere.example" })
        defer { server.stop() }
        let transport = URLSessionTransport(timeout: 5)
        let plain = try await ResolvedProvider.resolve(ProviderSettings(id: "work", kind: .oidc, clientID: "c", issuer: server.baseURL), transport: transport)
        #expect(plain.endpoints.revocation == nil)
        let configured = server.baseURL.appendingPathComponent("revoke-here")
        let set = try await ResolvedProvider.resolve(
            ProviderSettings(id: "work", kind: .oidc, clientID: "c", issuer: server.baseURL, revocationEndpoint: configured), transport: transport)
        #expect(set.endpoints.revocation == configured)
        #expect(set.endpoints.sources["revocation_endpoint"] == "config.toml")
    }
}
