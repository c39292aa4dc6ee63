import ConfigFile
import SwitchboardCore
import ToolCredentials

/// The `[git]` table into ToolCredentials' ``GitSettings``:
///
/// ```toml
/// [git]
/// identity_provider = "work"   # a configured provider (or demo)
/// set_identity = false         # default true
/// ```
enum GitSection {
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
        settings.setIdentity = try table.optionalBool("set_identity") ?? true
        return settings
    }
}
