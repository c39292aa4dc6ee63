import DeviceFlow
import Foundation
import SwitchboardCore

/// The configured providers, resolved (discovery) on first use and kept.
public actor ProviderDirectory {
    public let configuration: ProviderConfiguration
    public let transport: any HTTPTransport
    private var resolved: [ProviderID: ResolvedProvider] = [:]

    public init(configuration: ProviderConfiguration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// The provider ready to use, or why not.
    public func resolve(_ id: ProviderID) async throws(FlowFailure) -> ResolvedProvider {
        if let known = resolved[id] { return known }
        guard let settings = configuration.provider(id) else {
            throw .configuration("no provider called \(id.rawValue.displaySafe); `switchboard providers` lists them")
        }
        let provider = try await ResolvedProvider.resolve(settings, transport: transport)
        resolved[id] = provider
        return provider
    }
}
