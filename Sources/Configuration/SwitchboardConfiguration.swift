import ConfigFile
import DeviceFlow
import Foundation
import StationConfig
import SwitchboardCore
import TerminalUI
import ToolCredentials

/// Everything config.toml says, read in one pass into the values each
/// module takes:
///
/// ```toml
/// theme = "light"                  # TerminalUI's ThemeRequest, for the chooser
///
/// [providers.work]                 # DeviceFlow's ProviderSettings
/// kind = "oidc"
/// issuer = "https://login.example.com"
/// client_id = "switchboard"
///
/// [kiosk]                          # StationSettings' StationSettings
/// idle_timeout = 120
///
/// [store]                          # StoreSettings
/// url = "postgresql://switchboard@db.example.org/switchboard"
/// station = "lab-3"
/// keep_events = "400d"
///
/// [git]                            # ToolCredentials' GitSettings
/// identity_provider = "work"
/// set_identity = false
/// ```
///
/// A key or table the program does not know is refused, with a near miss
/// suggested; every error names the file, line and key, as
/// `config.toml:3: store.keep_events: ...`.
public struct SwitchboardConfiguration: Sendable {
    /// Where the configuration came from, or nil when there was no file.
    public var file: String?
    /// The configured providers in file order, then Demo unless configured.
    public var providers: ProviderConfiguration
    /// The `theme` key: a shipped theme's name or a theme file's path, with
    /// where it was set; nil when the file names none. The chooser resolves
    /// it when it starts (a theme that cannot be used is a warning there).
    public var theme: ThemeRequest?
    /// The `[kiosk]` table; the defaults when there is none.
    public var kiosk: StationSettings
    /// `[kiosk] operator_key` as written, for `checkOperatorKey(taken:)`;
    /// nil when the file sets none.
    var operatorKeyWritten: WrittenOperatorKey?
    /// The `[store]` table; empty when there is none.
    public var store: StoreSettings
    /// The `[git]` table; the defaults when there is none.
    public var git: GitSettings
    /// What to tell the person about the file beyond errors: client secrets
    /// in a file others can read.
    public var warnings: [String]

    public init(
        file: String? = nil, providers: [ProviderSettings] = [], theme: ThemeRequest? = nil, kiosk: StationSettings = StationSettings(),
        store: StoreSettings = StoreSettings(), git: GitSettings = GitSettings(), warnings: [String] = []
    ) {
        self.file = file
        self.providers = ProviderConfiguration(providers: providers)
        self.theme = theme
        self.kiosk = kiosk
        self.store = store
        self.git = git
        self.warnings = warnings
    }

    /// The top-level keys, each a table but `theme`.
    public static let sections = ["providers", "theme", "kiosk", "store", "git"]

    // MARK: - The file

    /// The config file's path: `--config`, else `SWITCHBOARD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/switchboard/config.toml`, else `~/.config/...`;
    /// `explicit` when it was named (then a missing file is worth a notice).
    public static func path(explicit: String?, environment: [String: String]) -> (path: String, explicit: Bool) {
        ConfigLocation.resolve(explicit: explicit, environment: environment)
    }

    /// Reads the file at `path`; a missing file gives the defaults (see
    /// ``missingFileNotice(explicit:environment:)`` for what to say when it
    /// was named). Every other problem is an error naming file, line and key.
    public static func load(path: String) throws(ConfigError) -> SwitchboardConfiguration {
        guard FileManager.default.fileExists(atPath: path) else { return SwitchboardConfiguration() }
        let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber
        var configuration = try parse(ConfigFile.load(path: path), othersCanRead: (mode?.intValue ?? 0) & 0o077 != 0)
        if let warning = secretsWarning(configuration, path: path) { configuration.warnings.append(warning) }
        return configuration
    }

    /// What to say, once, when a configuration file named with `--config`
    /// or `SWITCHBOARD_CONFIG` does not exist; nil when there is nothing to say.
    public static func missingFileNotice(explicit: String?, environment: [String: String]) -> String? {
        let (path, named) = self.path(explicit: explicit, environment: environment)
        guard named, !FileManager.default.fileExists(atPath: path) else { return nil }
        return "\(path.displaySafe): no such configuration file; using the defaults"
    }

    /// Client secrets belong in a file only its owner can read.
    static func secretsWarning(_ configuration: SwitchboardConfiguration, path: String) -> String? {
        guard configuration.providers.providers.contains(where: { $0.clientSecret != nil }),
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber,
            mode.intValue & 0o077 != 0
        else { return nil }
        return "\(path) holds client secrets and others can read it; run chmod 600 \(path)"
    }

    // MARK: - Parsing

    /// Reads a parsed document: every section, in one pass. A store URL
    /// with a password is refused when `othersCanRead` the file.
    public static func parse(_ document: TOMLDocument, othersCanRead: Bool = false) throws(ConfigError) -> SwitchboardConfiguration {
        let root = document.root
        try root.rejectUnknownKeys(allowed: sections)
        let providers = try ProviderSection.parse(root.optionalTable("providers"))
        let all = ProviderConfiguration(providers: providers)
        let theme = try theme(root)
        let (kiosk, operatorKey) = try KioskSection.parse(root.optionalTable("kiosk"))
        var configuration = SwitchboardConfiguration(
            file: document.file, providers: providers, theme: theme, kiosk: kiosk,
            store: try StoreSettings.parse(root.optionalTable("store"), othersCanRead: othersCanRead),
            git: try GitSection.parse(root.optionalTable("git"), providers: all.providers.map(\.id)))
        configuration.operatorKeyWritten = operatorKey
        return configuration
    }

    /// Reads `text` as the file `file` (the name errors give).
    public static func parse(text: String, file: String) throws(ConfigError) -> SwitchboardConfiguration {
        try parse(TOMLParser.parse(text, file: file))
    }

    /// The `theme` key, with its place for the chooser's warning.
    private static func theme(_ root: TOMLTable) throws(ConfigError) -> ThemeRequest? {
        guard let argument = try root.optionalString("theme") else { return nil }
        let line = root.entry(for: "theme").map { ":\($0.line)" } ?? ""
        return ThemeRequest(argument, source: "\(root.file)\(line): theme")
    }
}
