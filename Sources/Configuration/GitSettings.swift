import ConfigFile
import SwitchboardCore

/// The `[git]` table: which provider's identity git commits use. Read and
/// checked now; nothing uses it yet.
///
/// ```toml
/// [git]
/// identity_provider = "work"   # a configured provider (or demo)
/// set_identity = true          # default false
/// ```
public struct GitSettings: Hashable, Sendable {
    /// `identity_provider`: the provider whose identity git uses; nil when not set.
    public var identityProvider: ProviderID?
    /// `set_identity`: whether git's identity is set from it (false unless set).
    public var setIdentity: Bool

    public init(identityProvider: ProviderID? = nil, setIdentity: Bool = false) {
        self.identityProvider = identityProvider
        self.setIdentity = setIdentity
    }

    /// The keys `[git]` takes.
    static let keys = ["identity_provider", "set_identity"]

    /// The settings in `table` (the defaults when there is none);
    /// `identity_provider` must be one of `providers`, the ones configured.
    static func parse(_ table: TOMLTable?, providers: [ProviderID]) throws(ConfigError) -> GitSettings {
        var settings = GitSettings()
        guard let table else { return settings }
        try table.rejectUnknownKeys(allowed: keys)
        if let name = try table.optionalString("identity_provider", oneOf: providers.map(\.rawValue)) {
            settings.identityProvider = ProviderID(name)
        }
        settings.setIdentity = try table.optionalBool("set_identity") ?? false
        return settings
    }
}
