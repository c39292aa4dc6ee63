import Foundation
import SwitchboardCore

/// The kinds of provider Switchboard knows how to sign in with.
public enum ProviderKind: String, CaseIterable, Sendable, Codable {
    case github, google, microsoft, gitlab, oidc, demo
}

/// One provider as an operator configured it (`[providers.NAME]` in
/// config.toml), or a built-in default.
public struct ProviderSettings: Hashable, Sendable {
    public var id: ProviderID
    public var kind: ProviderKind
    public var clientID: String?
    public var clientSecret: String?
    /// For `oidc` (required) and `demo`; derived for the others.
    public var issuer: URL?
    public var scopes: [String]?
    /// Where discovery lacks it (GitLab) or to override it.
    public var deviceAuthorizationEndpoint: URL?
    /// `revocation_endpoint`: where neither discovery document lists it, or to override it.
    public var revocationEndpoint: URL?
    /// Microsoft's tenant (`common`, `organizations`, a tenant id).
    public var tenant: String?
    /// GitLab's host (`https://gitlab.com`).
    public var host: URL?
    /// A display name; the template's when nil.
    public var displayName: String?
    /// Git servers that take this provider's access tokens, besides the
    /// ones its kind implies (`git_hosts`): each a scheme, host and port.
    public var gitHosts: [URL]
    /// `client_auth`: how a client secret is sent; nil to follow the
    /// provider's metadata (`ClientAuthentication.preferred(by:)`).
    public var clientAuthentication: ClientAuthentication?

    public init(
        id: ProviderID, kind: ProviderKind, clientID: String? = nil, clientSecret: String? = nil, issuer: URL? = nil,
        scopes: [String]? = nil, deviceAuthorizationEndpoint: URL? = nil, tenant: String? = nil, host: URL? = nil,
        displayName: String? = nil, gitHosts: [URL] = [], clientAuthentication: ClientAuthentication? = nil, revocationEndpoint: URL? = nil
    ) {
        self.revocationEndpoint = revocationEndpoint
        self.clientAuthentication = clientAuthentication
        self.id = id
        self.kind = kind
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.issuer = issuer
        self.scopes = scopes
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.tenant = tenant
        self.host = host
        self.displayName = displayName
        self.gitHosts = gitHosts
    }

    public var template: ProviderTemplate { ProviderTemplate.of(kind) }
    public var name: String { displayName ?? template.displayName }

    /// What keeps this provider from being used, or nil when ready.
    public var problem: String? {
        if clientID == nil { return "needs client_id in [providers.\(id)]" }
        if template.needsClientSecret && clientSecret == nil { return "needs client_secret in [providers.\(id)]" }
        if kind == .oidc && issuer == nil { return "needs issuer in [providers.\(id)]" }
        return nil
    }
}

/// What Switchboard knows of a kind of provider. How providers differ is
/// data here, not branches in the flow.
public struct ProviderTemplate: Sendable {
    public let kind: ProviderKind
    public let displayName: String
    public let defaultScopes: [String]
    public let needsClientSecret: Bool
    /// Claims joined to make the stable subject.
    public let subjectClaims: [String]
    public let features: Set<Feature>
    /// Where a person revokes access by hand when there is no revocation endpoint.
    public let manualRevocation: URL?

    public static func of(_ kind: ProviderKind) -> ProviderTemplate {
        switch kind {
        case .github:
            ProviderTemplate(kind: kind, displayName: "GitHub", defaultScopes: ["read:user", "user:email"], needsClientSecret: false,
                             subjectClaims: ["sub"], features: [.profile, .repositories, .apiToken, .favourites],
                             manualRevocation: URL(string: "https://github.com/settings/applications"))
        case .google:
            ProviderTemplate(kind: kind, displayName: "Google", defaultScopes: ["openid", "email", "profile"], needsClientSecret: true,
                             subjectClaims: ["sub"], features: [.profile, .email, .calendar, .apiToken, .favourites], manualRevocation: nil)
        case .microsoft:
            ProviderTemplate(kind: kind, displayName: "Microsoft", defaultScopes: ["openid", "profile", "email", "offline_access"],
                             needsClientSecret: false, subjectClaims: ["oid", "tid"],
                             features: [.profile, .email, .calendar, .apiToken, .favourites],
                             manualRevocation: URL(string: "https://myapps.microsoft.com"))
        case .gitlab:
            ProviderTemplate(kind: kind, displayName: "GitLab", defaultScopes: ["openid", "profile", "email"], needsClientSecret: false,
                             subjectClaims: ["sub"], features: [.profile, .email, .repositories, .apiToken, .favourites], manualRevocation: nil)
        case .oidc:
            ProviderTemplate(kind: kind, displayName: "OpenID Connect", defaultScopes: ["openid", "profile", "email"],
                             needsClientSecret: false, subjectClaims: ["sub"], features: [.profile, .email, .apiToken, .favourites],
                             manualRevocation: nil)
        case .demo:
            ProviderTemplate(kind: kind, displayName: "Demo", defaultScopes: ["openid", "profile", "email", "offline_access"],
                             needsClientSecret: false, subjectClaims: ["sub"], features: [.profile, .email, .apiToken, .favourites],
                             manualRevocation: nil)
        }
    }
}

/// A provider ready to sign in with: settings, template and endpoints.
public struct ResolvedProvider: Sendable {
    public let settings: ProviderSettings
    public let endpoints: ProviderEndpoints
    public var id: ProviderID { settings.id }
    public var template: ProviderTemplate { settings.template }
    /// The client's credentials, sent as `client_auth` says, else as the
    /// provider's metadata prefers (GitHub, which publishes none, takes them in the body).
    public var client: ClientCredentials {
        let authentication = settings.clientAuthentication
            ?? (settings.kind == .github ? .post : ClientAuthentication.preferred(by: endpoints.tokenAuthMethods))
        return ClientCredentials(clientID: settings.clientID ?? "", clientSecret: settings.clientSecret, authentication: authentication)
    }
    /// The scopes asked for: as configured or given (`--scope`), sent as
    /// they are; else the template's defaults that discovery lists as
    /// supported (all of them when it lists none).
    public var scopes: [String] {
        if let scopes = settings.scopes { return scopes }
        guard let supported = endpoints.scopesSupported, !supported.isEmpty else { return template.defaultScopes }
        return template.defaultScopes.filter(supported.contains)
    }

    /// Finds the endpoints: fixed ones for GitHub, OpenID Connect discovery
    /// for the rest, then RFC 8414's metadata for what that lacks, then the
    /// configuration (`device_authorization_endpoint`, `revocation_endpoint`).
    public static func resolve(_ settings: ProviderSettings, transport: some HTTPTransport) async throws(FlowFailure) -> ResolvedProvider {
        if let problem = settings.problem { throw .configuration("\(settings.id): \(problem)") }
        for url in [settings.issuer, settings.host, settings.deviceAuthorizationEndpoint, settings.revocationEndpoint].compactMap({ $0 }) {
            try EndpointPolicy.check(url, as: "\(settings.id)'s URL")
        }
        var endpoints: ProviderEndpoints
        switch settings.kind {
        case .github:
            endpoints = ProviderEndpoints(
                deviceAuthorization: URL(string: "https://github.com/login/device/code")!,
                token: URL(string: "https://github.com/login/oauth/access_token")!,
                userAPI: URL(string: "https://api.github.com/user")!)
        case .google:
            endpoints = try await OIDCDiscovery.fetch(issuer: settings.issuer ?? URL(string: "https://accounts.google.com")!, transport: transport)
            endpoints.mark("OpenID discovery")
            endpoints.deviceAuthorization = endpoints.deviceAuthorization ?? URL(string: "https://oauth2.googleapis.com/device/code")
            endpoints.revocation = endpoints.revocation ?? URL(string: "https://oauth2.googleapis.com/revoke")
        case .microsoft:
            let tenant = settings.tenant ?? "common"
            endpoints = try await OIDCDiscovery.fetch(
                issuer: settings.issuer ?? URL(string: "https://login.microsoftonline.com/\(tenant)/v2.0")!, allowsTenantTemplate: true,
                transport: transport)
            endpoints.mark("OpenID discovery")
            endpoints.deviceAuthorization = endpoints.deviceAuthorization
                ?? URL(string: "https://login.microsoftonline.com/\(tenant)/oauth2/v2.0/devicecode")
        case .gitlab:
            let host = settings.host ?? settings.issuer ?? URL(string: "https://gitlab.com")!
            endpoints = try await OIDCDiscovery.fetch(issuer: host, transport: transport)
            endpoints.mark("OpenID discovery")
            endpoints.deviceAuthorization = endpoints.deviceAuthorization ?? host.appendingPathComponent("oauth/authorize_device")
        case .oidc, .demo:
            let issuer = settings.issuer ?? URL(string: DemoApproval.defaultServer)!
            endpoints = try await OIDCDiscovery.fetch(issuer: issuer, transport: transport)
            endpoints.mark("OpenID discovery")
        }
        // OpenID Connect discovery first, then RFC 8414's document for what it lacks, then the configuration.
        // Discovery's own endpoints are judged before anything more is asked of the server.
        if settings.kind != .github { endpoints = await AuthorizationServerMetadata.filling(try endpoints.checked(), transport: transport) }
        if let configured = settings.deviceAuthorizationEndpoint {
            endpoints.deviceAuthorization = configured
            endpoints.sources["device_authorization_endpoint"] = "config.toml"
        }
        if let configured = settings.revocationEndpoint {
            endpoints.revocation = configured
            endpoints.sources["revocation_endpoint"] = "config.toml"
        }
        // GitHub's, and the fallbacks a kind knows (Google's revocation, GitLab's device endpoint).
        endpoints.mark("built in")
        guard endpoints.deviceAuthorization != nil else {
            throw .configuration("\(settings.id) does not offer the device grant: its discovery has no device_authorization_endpoint; set device_authorization_endpoint in [providers.\(settings.id)]")
        }
        // Discovery's answers and configuration alike, before any of them is used.
        return ResolvedProvider(settings: settings, endpoints: try endpoints.checked())
    }

    /// A new single-use flow for this provider.
    public func makeFlow(transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock()) -> DeviceFlow {
        DeviceFlow(
            deviceAuthorizationEndpoint: endpoints.deviceAuthorization!, tokenEndpoint: endpoints.token, client: client,
            scopes: scopes, transport: transport, clock: clock)
    }

    /// Finds out who signed in; with `trace`, the id_token's checked claims are recorded there.
    public func identityResolver(transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock(), trace: FlowTrace? = nil) -> IdentityResolver {
        IdentityResolver(
            provider: id, endpoints: endpoints, clientID: client.clientID, subjectClaims: template.subjectClaims,
            transport: transport, clock: clock, trace: trace)
    }

    public func tokenClient(transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock()) -> TokenClient {
        TokenClient(client: client, transport: transport, clock: clock)
    }
}

extension ProviderSettings {
    /// The built-in Demo provider at `issuer`, usable without configuration.
    public static func demo(issuer: URL = URL(string: DemoApproval.defaultServer)!) -> ProviderSettings {
        ProviderSettings(id: "demo", kind: .demo, clientID: "switchboard-demo", issuer: issuer)
    }
}
