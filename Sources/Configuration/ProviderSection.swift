import ConfigFile
import DeviceFlow
import Foundation
import SwitchboardCore

/// The `[providers.NAME]` tables, each into DeviceFlow's ``ProviderSettings``:
///
/// ```toml
/// [providers.work]
/// kind = "oidc"
/// issuer = "https://login.example.com"
/// client_id = "switchboard"
/// client_secret = "..."            # only where the provider demands one
/// scopes = ["openid", "profile", "email"]
/// device_authorization_endpoint = "https://login.example.com/device"   # when discovery lacks it
/// git_hosts = ["git.example.com", "https://code.example.com:8443"]     # git servers that take its tokens
/// ```
enum ProviderSection {
    /// The keys a provider's table takes.
    static let keys = [
        "kind", "name", "client_id", "client_secret", "client_auth", "issuer", "scopes", "device_authorization_endpoint", "revocation_endpoint",
        "tenant", "host", "git_hosts",
    ]

    /// The configured providers in file order (without the built-in Demo).
    static func parse(_ table: TOMLTable?) throws(ConfigError) -> [ProviderSettings] {
        guard let table else { return [] }
        var providers: [ProviderSettings] = []
        for (name, entry) in try table.allTables() {
            providers.append(try settings(named: name, entry))
        }
        return providers
    }

    private static func settings(named name: String, _ entry: TOMLTable) throws(ConfigError) -> ProviderSettings {
        try entry.rejectUnknownKeys(allowed: keys)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), !name.contains(":") else {
            throw entry.error("provider names may hold only letters, digits, - and _")
        }
        let kindName = try entry.optionalString("kind", oneOf: ProviderKind.allCases.map(\.rawValue))
            ?? (ProviderKind(rawValue: name) != nil ? name : nil)
        guard let kindName, let kind = ProviderKind(rawValue: kindName) else {
            throw entry.error(key: "kind", "missing: set kind to one of \(ProviderKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var settings = ProviderSettings(
            id: ProviderID(name), kind: kind, clientID: try entry.optionalString("client_id"),
            clientSecret: try entry.optionalString("client_secret"), issuer: try url(entry, "issuer"),
            scopes: try entry.optionalStringArray("scopes"), deviceAuthorizationEndpoint: try url(entry, "device_authorization_endpoint"),
            tenant: try entry.optionalString("tenant"), host: try url(entry, "host"), displayName: try entry.optionalString("name"),
            gitHosts: try gitHosts(entry),
            clientAuthentication: try entry.optionalString("client_auth", oneOf: ClientAuthentication.allCases.map(\.rawValue))
                .flatMap(ClientAuthentication.init(rawValue:)),
            revocationEndpoint: try url(entry, "revocation_endpoint"))
        if kind == .demo && settings.clientID == nil { settings.clientID = "switchboard-demo" }
        if kind == .oidc && settings.issuer == nil { throw entry.error(key: "issuer", "missing: an oidc provider needs its issuer URL") }
        if kind == .oidc || kind == .github || kind == .google || kind == .microsoft || kind == .gitlab, settings.clientID == nil {
            throw entry.error(key: "client_id", "missing: register Switchboard with the provider and put its client id here")
        }
        if settings.template.needsClientSecret && settings.clientSecret == nil {
            throw entry.error(key: "client_secret", "missing: \(settings.template.displayName) requires a client secret for the device flow")
        }
        return settings
    }

    /// `git_hosts`: git servers, each a host (`git.example.com`, with
    /// `:port` when it is not 443: https is meant) or the URL of a server's
    /// root (`https://git.example.com:8443`, `http://127.0.0.1:3000`); https,
    /// or plain http on loopback only, as every URL here.
    static func gitHosts(_ entry: TOMLTable) throws(ConfigError) -> [URL] {
        guard let hosts = try entry.optionalStringArray("git_hosts") else { return [] }
        var urls: [URL] = []
        for host in hosts {
            let text = host.contains("://") ? host : "https://" + host
            guard let url = URL(string: text), url.host?.isEmpty == false, url.user == nil, url.query == nil, url.fragment == nil,
                url.path.isEmpty || url.path == "/"
            else {
                throw entry.error(key: "git_hosts", "\(String(reflecting: host).displaySafe) is not a host or a server's root URL (git.example.com, https://git.example.com:8443)")
            }
            if let problem = EndpointPolicy.problem(with: url, as: "the git host") { throw entry.error(key: "git_hosts", problem) }
            urls.append(url)
        }
        return urls
    }

    /// The URL at `key`, which `EndpointPolicy` must allow (https, or plain
    /// http to a loopback host); nil when absent.
    static func url(_ entry: TOMLTable, _ key: String, example: String = "https://login.example.com") throws(ConfigError) -> URL? {
        guard let text = try entry.optionalString(key) else { return nil }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw entry.error(key: key, "not a URL (an https URL such as \(example))")
        }
        if let problem = EndpointPolicy.problem(with: url, as: "the URL") { throw entry.error(key: key, problem) }
        return url
    }
}
