import DemoProvider
import DeviceFlow
import Foundation
import SwitchboardCore

/// The configured providers, resolved (discovery) on first use and kept.
/// For a sign-in, when a demo-kind provider does not answer at its address,
/// the directory starts one in this process (one for each such provider,
/// as each is first needed) and keeps it until `shutdown()`, so Demo works
/// with no configuration and no second terminal.
/// Checks and revocations never start one: a fresh demo provider knows no
/// tokens and would call every one revoked.
public actor ProviderDirectory {
    public nonisolated let configuration: ProviderConfiguration
    public nonisolated let transport: any HTTPTransport
    private var resolved: [ProviderID: ResolvedProvider] = [:]
    private var demoServers: [ProviderID: DemoServer] = [:]

    public init(configuration: ProviderConfiguration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// The provider ready to use, or why not.
    public func resolve(_ id: ProviderID) async throws(FlowFailure) -> ResolvedProvider {
        if let known = resolved[id] { return known }
        let provider = try await ResolvedProvider.resolve(try settings(id), transport: transport)
        resolved[id] = provider
        return provider
    }

    /// The provider ready to sign in with; `startedDemo` is the address of
    /// a demo provider this call had to start in-process. With `trace`, the
    /// provider is discovered afresh through it, so the trace of a sign-in
    /// begins with its discovery.
    public func resolveForSignIn(_ id: ProviderID, trace: FlowTrace? = nil) async throws(FlowFailure) -> (provider: ResolvedProvider, startedDemo: URL?) {
        if trace == nil, let known = resolved[id] { return (known, nil) }
        let transport = trace.map { TracingTransport(self.transport, trace: $0) } ?? self.transport
        // A demo provider started here earlier is where its settings point now.
        let settings: ProviderSettings
        if let known = resolved[id] { settings = known.settings } else { settings = try self.settings(id) }
        var startedDemo: URL?
        let provider: ResolvedProvider
        do {
            provider = try await ResolvedProvider.resolve(settings, transport: transport)
        } catch {
            guard case .offline = error, settings.kind == .demo, demoServers[id] == nil else { throw error }
            let issuer = settings.issuer ?? URL(string: "http://127.0.0.1:8628")!
            let server = DemoServer()
            let url: URL
            do { url = try await server.start(port: UInt16(issuer.port ?? 8628)) } catch {
                throw .offline("cannot start the demo provider: \(error)")
            }
            demoServers[id] = server
            startedDemo = url
            var started = settings
            started.issuer = url
            provider = try await ResolvedProvider.resolve(started, transport: transport)
        }
        resolved[id] = provider
        return (provider, startedDemo)
    }

    private func settings(_ id: ProviderID) throws(FlowFailure) -> ProviderSettings {
        guard let settings = configuration.provider(id) else {
            throw .configuration("no provider called \(id.rawValue.displaySafe); `switchboard providers` lists them")
        }
        return settings
    }

    /// Stops the demo providers this directory started, if any.
    public func shutdown() async {
        for server in demoServers.values { await server.stop() }
        demoServers = [:]
    }
}
