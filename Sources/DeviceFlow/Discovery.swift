import Foundation

/// A provider's endpoints, from OpenID Connect discovery, a built-in
/// template, or configuration.
public struct ProviderEndpoints: Hashable, Sendable {
    /// The issuer, when the provider speaks OpenID Connect. May hold
    /// `{tenantid}` (Microsoft's multi-tenant issuers).
    public var issuer: String?
    public var deviceAuthorization: URL?
    public var token: URL
    public var userinfo: URL?
    public var jwks: URL?
    public var revocation: URL?
    /// A provider's own user API, for providers without OpenID Connect
    /// (GitHub's `/user`): its numeric `id` is the stable subject.
    public var userAPI: URL?
    /// The scopes discovery says the provider supports (`scopes_supported`);
    /// nil when it did not say.
    public var scopesSupported: [String]?
    /// How the token endpoint lets a client authenticate
    /// (`token_endpoint_auth_methods_supported`); nil when it did not say.
    public var tokenAuthMethods: [String]?
    /// Where each endpoint came from, by its metadata name
    /// (`token_endpoint`): "OpenID discovery", "RFC 8414 metadata",
    /// "config.toml" or "built in". Filled by `ResolvedProvider.resolve`.
    public var sources: [String: String] = [:]

    /// Every endpoint that is set, by its metadata name, in a fixed order.
    public var named: [(name: String, url: URL)] {
        [("device_authorization_endpoint", deviceAuthorization), ("token_endpoint", token), ("userinfo_endpoint", userinfo),
         ("jwks_uri", jwks), ("revocation_endpoint", revocation), ("user_api", userAPI)]
            .compactMap { name, url in url.map { (name, $0) } }
    }

    /// Marks every endpoint that is set and has no source yet as from `source`.
    mutating func mark(_ source: String) {
        for (name, _) in named where sources[name] == nil { sources[name] = source }
    }

    public init(
        issuer: String? = nil, deviceAuthorization: URL?, token: URL, userinfo: URL? = nil, jwks: URL? = nil,
        revocation: URL? = nil, userAPI: URL? = nil, scopesSupported: [String]? = nil, tokenAuthMethods: [String]? = nil
    ) {
        self.scopesSupported = scopesSupported
        self.tokenAuthMethods = tokenAuthMethods
        self.issuer = issuer
        self.deviceAuthorization = deviceAuthorization
        self.token = token
        self.userinfo = userinfo
        self.jwks = jwks
        self.revocation = revocation
        self.userAPI = userAPI
    }
}

/// OpenID Connect discovery (`/.well-known/openid-configuration`).
public enum OIDCDiscovery {
    /// The one host whose discovery may name a `{tenantid}` issuer template.
    public static let tenantTemplateHost = "login.microsoftonline.com"

    /// Fetches and checks the issuer's metadata. The document's `issuer`
    /// must be the one asked for (OpenID Connect Discovery §4.3); a
    /// `{tenantid}` template is accepted only when `allowsTenantTemplate`
    /// (the Microsoft kind) and only on `tenantTemplateHost`, for both the
    /// issuer asked and the one stated.
    public static func fetch(
        issuer: URL, allowsTenantTemplate: Bool = false, transport: some HTTPTransport
    ) async throws(FlowFailure) -> ProviderEndpoints {
        try EndpointPolicy.check(issuer, as: "the issuer")
        let base = issuer.absoluteString.hasSuffix("/") ? String(issuer.absoluteString.dropLast()) : issuer.absoluteString
        guard let url = URL(string: base + "/.well-known/openid-configuration") else {
            throw .configuration("issuer \(issuer) is not a URL")
        }
        let response: HTTPResponse
        do { response = try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"])) } catch {
            throw FlowFailure(error)
        }
        guard response.status == 200,
            let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else {
            throw .invalidResponse("no OpenID Connect discovery document at \(url) (HTTP \(response.status))")
        }
        func endpoint(_ key: String) -> URL? { (document[key] as? String).flatMap(URL.init(string:)) }
        guard let stated = document["issuer"] as? String else { throw .invalidResponse("the discovery document at \(url) has no issuer") }
        let trimmed = stated.hasSuffix("/") ? String(stated.dropLast()) : stated
        let templateAllowed = allowsTenantTemplate && issuer.host?.lowercased() == tenantTemplateHost
            && URL(string: stated.replacingOccurrences(of: "{tenantid}", with: "t"))?.host?.lowercased() == tenantTemplateHost
        guard trimmed == base || (stated.contains("{tenantid}") && templateAllowed) else {
            throw .invalidResponse("the discovery document at \(url) names another issuer (\(stated.displaySafeSingleLine))")
        }
        guard let token = endpoint("token_endpoint") else { throw .invalidResponse("the discovery document at \(url) has no token_endpoint") }
        return ProviderEndpoints(
            issuer: stated, deviceAuthorization: endpoint("device_authorization_endpoint"), token: token,
            userinfo: endpoint("userinfo_endpoint"), jwks: endpoint("jwks_uri"), revocation: endpoint("revocation_endpoint"),
            scopesSupported: (document["scopes_supported"] as? [Any])?.compactMap { $0 as? String },
            tokenAuthMethods: (document["token_endpoint_auth_methods_supported"] as? [Any])?.compactMap { $0 as? String })
    }
}

extension ProviderEndpoints {
    /// Every URL that is set, with what it is for.
    var all: [(url: URL, role: String)] {
        [(deviceAuthorization, "the device authorization endpoint"), (token, "the token endpoint"), (userinfo, "the userinfo endpoint"),
         (jwks, "the JWKS URI"), (revocation, "the revocation endpoint"), (userAPI, "the user API")]
            .compactMap { url, role in url.map { ($0, role) } }
    }

    /// Throws, naming the URL, unless every endpoint is one `EndpointPolicy` allows.
    public func checked() throws(FlowFailure) -> ProviderEndpoints {
        for (url, role) in all { try EndpointPolicy.check(url, as: role) }
        return self
    }
}

/// RFC 8414's authorization server metadata
/// (`/.well-known/oauth-authorization-server`), read for what OpenID
/// Connect discovery left out: a server may list its revocation or device
/// endpoint only there.
public enum AuthorizationServerMetadata {
    /// The metadata document of `issuer`: the well-known path goes between
    /// the host and the issuer's own path (RFC 8414 §3.1). Nil when the
    /// server has none, it cannot be read, or it names another issuer
    /// (§3.3): then nothing of it is used.
    static func fetch(issuer: String, transport: some HTTPTransport) async -> [String: Any]? {
        guard !issuer.contains("{"), let url = URL(string: issuer), let host = url.host, let scheme = url.scheme else { return nil }
        let path = url.path == "/" ? "" : url.path
        let port = url.port.map { ":\($0)" } ?? ""
        guard let wellKnown = URL(string: "\(scheme)://\(host)\(port)/.well-known/oauth-authorization-server\(path)") else { return nil }
        guard let response = try? await transport.send(HTTPRequest(url: wellKnown, headers: ["Accept": "application/json"])),
            response.status == 200, let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let stated = document["issuer"] as? String,
            stated == issuer || stated + "/" == issuer || stated == issuer + "/"
        else { return nil }
        return document
    }

    /// `endpoints` with what the issuer's RFC 8414 document adds where they
    /// lack it: the revocation and device authorization endpoints, and the
    /// token endpoint's authentication methods.
    static func filling(_ endpoints: ProviderEndpoints, transport: some HTTPTransport) async -> ProviderEndpoints {
        guard let issuer = endpoints.issuer, endpoints.revocation == nil || endpoints.deviceAuthorization == nil || endpoints.tokenAuthMethods == nil,
            let document = await fetch(issuer: issuer, transport: transport)
        else { return endpoints }
        func endpoint(_ key: String) -> URL? { (document[key] as? String).flatMap(URL.init(string:)) }
        var filled = endpoints
        filled.revocation = filled.revocation ?? endpoint("revocation_endpoint")
        filled.deviceAuthorization = filled.deviceAuthorization ?? endpoint("device_authorization_endpoint")
        filled.tokenAuthMethods = filled.tokenAuthMethods
            ?? (document["token_endpoint_auth_methods_supported"] as? [Any])?.compactMap { $0 as? String }
        filled.mark("RFC 8414 metadata")
        return filled
    }
}
