import SwitchboardCore

/// The providers to sign in with: the configured ones (config.toml's
/// `[providers.NAME]` tables, which the `Configuration` module reads into
/// ``ProviderSettings``), plus the built-in Demo provider. This module
/// reads no file.
public struct ProviderConfiguration: Sendable {
    /// Every provider, configured ones first (in the order given), then
    /// Demo unless one of them is a demo provider.
    public let providers: [ProviderSettings]
    /// The providers configured (given), without the built-in Demo added.
    public let configured: [ProviderSettings]

    public init(providers: [ProviderSettings]) {
        let demo = providers.contains { $0.kind == .demo } ? [] : [ProviderSettings.demo()]
        self.providers = providers + demo
        configured = providers
    }

    /// The provider called `id`.
    public func provider(_ id: ProviderID) -> ProviderSettings? { providers.first { $0.id == id } }
}
