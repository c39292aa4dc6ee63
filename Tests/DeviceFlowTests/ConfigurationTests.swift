import Foundation
import Testing
@testable import DeviceFlow

/// The providers DeviceFlow is handed, as values: it reads no file.
@Suite("Provider configuration")
struct ConfigurationTests {
    static let work = ProviderSettings(id: "work", kind: .oidc, clientID: "switchboard", issuer: URL(string: "https://login.example.com"))

    @Test("the providers given, in their order, then Demo; looked up by id")
    func providersThenDemo() {
        let configuration = ProviderConfiguration(providers: [Self.work, ProviderSettings(id: "google", kind: .google, clientID: "c", clientSecret: "s")])
        #expect(configuration.providers.map(\.id) == ["work", "google", "demo"])
        #expect(configuration.provider("google")?.kind == .google)
        #expect(configuration.provider("demo") == .demo())
        #expect(configuration.provider("nobody") == nil)
        #expect(configuration.providers.allSatisfy { $0.problem == nil })
    }

    @Test("a demo provider given in place of the built-in one")
    func demoGiven() {
        let moved = ProviderSettings.demo(issuer: URL(string: "http://127.0.0.1:9000")!)
        let configuration = ProviderConfiguration(providers: [moved])
        #expect(configuration.providers == [moved])
        #expect(ProviderConfiguration(providers: []).providers == [.demo()])
    }

    @Test("what keeps a provider from being used is said, naming its table")
    func problems() {
        #expect(ProviderSettings(id: "gh", kind: .github).problem == "needs client_id in [providers.gh]")
        #expect(ProviderSettings(id: "g", kind: .google, clientID: "c").problem == "needs client_secret in [providers.g]")
        #expect(ProviderSettings(id: "w", kind: .oidc, clientID: "c").problem == "needs issuer in [providers.w]")
        #expect(Self.work.problem == nil)
    }

    @Test("a secret is kept but never described")
    func secretNotDescribed() {
        let client = ClientCredentials(clientID: "x", clientSecret: "s3cret")
        #expect(!"\(client)".contains("s3cret"))
    }
}
