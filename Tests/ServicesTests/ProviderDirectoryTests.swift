import DeviceFlow
import Foundation
import PostgresServer
import Services
import SwitchboardCore
import Testing

/// The directory starts each demo-kind provider a sign-in needs, one each.
@Suite("provider directory: demo providers started when first needed")
struct ProviderDirectoryTests {
    @Test("two demo-kind providers at two addresses, neither running: each sign-in starts its own, in either order; a second sign-in at one starts none")
    func twoDemoProviders() async throws {
        for order in [["demo", "lab"], ["lab", "demo"]] {
            let ports = [ProviderID("demo"): try ThrowawayCluster.freePort(), ProviderID("lab"): try ThrowawayCluster.freePort()]
            var lab = ProviderSettings.demo(issuer: URL(string: "http://127.0.0.1:\(ports["lab"]!)")!)
            lab.id = "lab"
            lab.displayName = "Demo Lab"
            let demo = ProviderSettings.demo(issuer: URL(string: "http://127.0.0.1:\(ports["demo"]!)")!)
            let directory = ProviderDirectory(configuration: ProviderConfiguration(providers: [demo, lab]), transport: URLSessionTransport(timeout: 5))
            var started: [ProviderID: URL] = [:]
            for id in order.map({ ProviderID($0) }) {
                let (provider, startedDemo) = try await directory.resolveForSignIn(id)
                let url = try #require(startedDemo, "\(id) was not started")
                #expect(url.port == ports[id].map { Int($0) }, "\(id) at \(url)")
                #expect(provider.settings.issuer?.port == url.port)
                started[id] = url
            }
            #expect(Set(started.values).count == 2)
            let (_, again) = try await directory.resolveForSignIn("lab")
            #expect(again == nil)
            await directory.shutdown()
        }
    }
}
