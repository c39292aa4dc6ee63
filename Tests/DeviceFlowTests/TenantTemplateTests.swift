import Foundation
import Testing
import TestSupport
@testable import DeviceFlow

@Suite("Only Microsoft, on its own host, may name a {tenantid} issuer")
struct TenantTemplateTests {
    private func resolve(_ settings: ProviderSettings, asked: String, stated: String) async throws -> ProviderEndpoints {
        let transport = CannedTransport(answers: [asked + "/.well-known/openid-configuration": discovery(stated)])
        return try await ResolvedProvider.resolve(settings, transport: transport).endpoints
    }

    @Test("an oidc provider's discovery may not claim a {tenantid} issuer")
    func oidcRefused() async throws {
        let settings = ProviderSettings(id: "work", kind: .oidc, clientID: "c", issuer: URL(string: "https://evil.example/common/v2.0")!)
        await #expect(throws: FlowFailure.self) {
            _ = try await resolve(settings, asked: "https://evil.example/common/v2.0", stated: "https://evil.example/{tenantid}/v2.0")
        }
    }

    @Test("Microsoft elsewhere than login.microsoftonline.com may not either")
    func microsoftElsewhereRefused() async throws {
        let settings = ProviderSettings(id: "microsoft", kind: .microsoft, clientID: "c", issuer: URL(string: "https://evil.example/common/v2.0")!)
        await #expect(throws: FlowFailure.self) {
            _ = try await resolve(settings, asked: "https://evil.example/common/v2.0", stated: "https://evil.example/{tenantid}/v2.0")
        }
        let onItsHost = ProviderSettings(id: "microsoft", kind: .microsoft, clientID: "c")
        await #expect(throws: FlowFailure.self) {
            _ = try await resolve(onItsHost, asked: "https://login.microsoftonline.com/common/v2.0", stated: "https://evil.example/{tenantid}/v2.0")
        }
    }

    @Test("Microsoft at login.microsoftonline.com may")
    func microsoftAccepted() async throws {
        let settings = ProviderSettings(id: "microsoft", kind: .microsoft, clientID: "c")
        let endpoints = try await resolve(
            settings, asked: "https://login.microsoftonline.com/common/v2.0", stated: "https://login.microsoftonline.com/{tenantid}/v2.0")
        #expect(endpoints.issuer == "https://login.microsoftonline.com/{tenantid}/v2.0")
    }
}
