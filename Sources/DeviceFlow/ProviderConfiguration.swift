import ConfigFile
import Foundation
import SwitchboardCore

/// The providers an operator configured in config.toml, plus the built-in
/// Demo provider:
///
/// ```toml
/// [providers.work]
/// kind = "oidc"
/// issuer = "https://login.example.com"
/// client_id = "switchboard"
/// client_secret = "..."            # only where the provider demands one
/// scopes = ["openid", "profile", "email"]
/// device_authorization_endpoint = "https://login.example.com/device"   # when discovery lacks it
/// ```
public struct ProviderConfiguration: Sendable {
    /// Every provider, configured ones first (in file order), then Demo
    /// unless configured.
    public let providers: [ProviderSettings]
    /// Where the configuration came from, or nil when there was no file.
    public let file: String?
    /// The `theme` key: a built-in theme's name or a theme file's path.
    public let theme: String?
    /// The `[kiosk]` table as written, for the station's own settings to read.
    public let kiosk: TOMLTable?

    public init(providers: [ProviderSettings], file: String?, theme: String? = nil, kiosk: TOMLTable? = nil) {
        let demo = providers.contains { $0.kind == .demo } ? [] : [ProviderSettings.demo()]
        self.providers = providers + demo
        self.file = file
        self.theme = theme
        self.kiosk = kiosk
    }

    /// The provider called `id`.
    public func provider(_ id: ProviderID) -> ProviderSettings? { providers.first { $0.id == id } }

    /// The config file's path: `--config`, else `SWITCHBOARD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/switchboard/config.toml`, else `~/.config/...`.
    public static func path(explicit: String?, environment: [String: String]) -> (path: String, explicit: Bool) {
        ConfigLocation.resolve(explicit: explicit, environment: environment)
    }

    /// Reads the file at `path`; a missing file gives the defaults (see
    /// `missingFileNotice` for what to say when it was named). Every other
    /// problem names file, line and key.
    public static func load(path: String) throws(ConfigError) -> ProviderConfiguration {
        guard FileManager.default.fileExists(atPath: path) else { return ProviderConfiguration(providers: [], file: nil) }
        return try parse(ConfigFile.load(path: path))
    }

    /// What to say, once, when a configuration file named with `--config`
    /// or `SWITCHBOARD_CONFIG` does not exist; nil when there is nothing to say.
    public static func missingFileNotice(explicit: String?, environment: [String: String]) -> String? {
        let (path, named) = self.path(explicit: explicit, environment: environment)
        guard named, !FileManager.default.fileExists(atPath: path) else { return nil }
        return "\(path.displaySafe): no such configuration file; using the defaults"
    }

    /// Reads a parsed document.
    public static func parse(_ document: TOMLDocument) throws(ConfigError) -> ProviderConfiguration {
        let root = document.root
        try root.rejectUnknownKeys(allowed: ["providers", "theme", "kiosk"])
        var providers: [ProviderSettings] = []
        if let table = try root.optionalTable("providers") {
            for (name, entry) in try table.allTables() {
                providers.append(try settings(named: name, entry))
            }
        }
        return ProviderConfiguration(
            providers: providers, file: document.file, theme: try root.optionalString("theme"), kiosk: try root.optionalTable("kiosk"))
    }

    static let keys = ["kind", "name", "client_id", "client_secret", "issuer", "scopes", "device_authorization_endpoint", "tenant", "host"]

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
            tenant: try entry.optionalString("tenant"), host: try url(entry, "host"), displayName: try entry.optionalString("name"))
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

    /// A URL that `EndpointPolicy` allows.
    private static func url(_ entry: TOMLTable, _ key: String) throws(ConfigError) -> URL? {
        guard let text = try entry.optionalString(key) else { return nil }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw entry.error(key: key, "not a URL (an https URL such as https://login.example.com)")
        }
        if let problem = EndpointPolicy.problem(with: url, as: "the URL") { throw entry.error(key: key, problem) }
        return url
    }
}
