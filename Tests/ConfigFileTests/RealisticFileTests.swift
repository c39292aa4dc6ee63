import ConfigFile
import Testing

/// A provider as Switchboard would read it.
private struct Provider: Equatable {
    var name, kind, clientID: String
    var issuer, secret, deviceEndpoint, tenant, host: String?
    var scopes: [String]
    var port: Int?

    static let kinds = ["oidc", "github", "google", "microsoft", "gitlab", "demo"]
    static let keys = ["kind", "issuer", "client_id", "client_secret", "scopes",
                       "device_authorization_endpoint", "tenant", "host", "port"]

    init(name: String, kind: String, clientID: String, issuer: String? = nil, secret: String? = nil,
         deviceEndpoint: String? = nil, tenant: String? = nil, host: String? = nil, scopes: [String] = [], port: Int? = nil) {
        (self.name, self.kind, self.clientID, self.issuer, self.secret) = (name, kind, clientID, issuer, secret)
        (self.deviceEndpoint, self.tenant, self.host, self.scopes, self.port) = (deviceEndpoint, tenant, host, scopes, port)
    }

    init(name: String, entry: TOMLTable) throws(ConfigError) {
        try entry.rejectUnknownKeys(allowed: Self.keys)
        self.init(name: name, kind: try entry.string("kind", oneOf: Self.kinds), clientID: try entry.string("client_id"),
                  issuer: try entry.optionalString("issuer"), secret: try entry.optionalString("client_secret"),
                  deviceEndpoint: try entry.optionalString("device_authorization_endpoint"),
                  tenant: try entry.optionalString("tenant"), host: try entry.optionalString("host"),
                  scopes: try entry.optionalStringArray("scopes") ?? [], port: try entry.optionalInteger("port", in: 1...65535))
        if kind == "oidc" && issuer == nil { throw entry.error(key: "issuer", "is required when kind is \"oidc\"") }
    }
}

private func readProviders(_ doc: TOMLDocument) throws(ConfigError) -> [Provider] {
    try doc.root.rejectUnknownKeys(allowed: ["providers", "theme", "kiosk"])
    var result: [Provider] = []
    for (name, entry) in try doc.root.table("providers").allTables() {
        result.append(try Provider(name: name, entry: entry))
    }
    return result
}

@Suite struct RealisticFileTests {
    static let config = """
        # Switchboard configuration

        [theme]
        name = "midnight"   # a file in themes/

        [kiosk]
        enabled = true
        idle_timeout = 300
        message = "Choose your account"

        [providers.work]
        kind = "microsoft"
        client_id = "1f2e3d4c-0000-4b5a-9c8d-7e6f5a4b3c2d"
        tenant = "contoso.onmicrosoft.com"
        scopes = [
          "openid",
          "profile",         # needed for the display name
          "offline_access",
        ]

        [providers.github]
        kind = "github"
        client_id = "Iv1.8a61f9b3a7aba766"
        client_secret = 'not\\a\\secret'

        [providers.corp]
        kind = "oidc"
        issuer = "https://id.example.com/realms/corp"
        client_id = "switchboard"
        device_authorization_endpoint = "https://id.example.com/realms/corp/device"
        scopes = ["openid", "email"]

        [providers."self hosted"]
        kind = "gitlab"
        host = "gitlab.example.org"
        client_id = "abc123"
        port = 8443
        """

    @Test func configReadsThroughAccessors() throws {
        let doc = try TOMLParser.parse(Self.config, file: "config.toml")
        let providers = try readProviders(doc)
        #expect(providers.map(\.name) == ["work", "github", "corp", "self hosted"])
        #expect(providers[0] == Provider(name: "work", kind: "microsoft", clientID: "1f2e3d4c-0000-4b5a-9c8d-7e6f5a4b3c2d",
                                         tenant: "contoso.onmicrosoft.com", scopes: ["openid", "profile", "offline_access"]))
        #expect(providers[1].secret == #"not\a\secret"#)
        #expect(providers[2].deviceEndpoint == "https://id.example.com/realms/corp/device")
        #expect(providers[3].port == 8443 && providers[3].host == "gitlab.example.org")
        let kiosk = try doc.root.table("kiosk")
        #expect(try kiosk.bool("enabled") && kiosk.integer("idle_timeout", in: 0...86400) == 300)
        #expect(try doc.root.optionalTable("theme")?.string("name") == "midnight")
    }

    static let brokenConfigs: [GoldenError] = [
        .init(config.replacingOccurrences("client_id = \"switchboard\"\n", ""),
              "config.toml:26: providers.corp.client_id: missing required key"),
        .init(config.replacingOccurrences("kind = \"github\"", "kind = \"githb\""),
              #"config.toml:22: providers.github.kind: expected one of "oidc", "github", "google", "microsoft", "gitlab", "demo", found something else (did you mean "github"?)"#),
        .init(config.replacingOccurrences("client_id = \"abc123\"", "client_id = 123"),
              "config.toml:36: providers.\"self hosted\".client_id: expected a string, found an integer"),
        .init(config.replacingOccurrences("port = 8443", "port = 0"),
              "config.toml:37: providers.\"self hosted\".port: expected an integer from 1 to 65535, found 0"),
        .init(config.replacingOccurrences("tenant =", "tennant ="),
              #"config.toml:14: providers.work.tennant: unknown key (did you mean "tenant"?)"#),
        .init(config.replacingOccurrences("  \"profile\",", "  \"profile\" ,, "),
              "config.toml:17:14: providers.work.scopes[2]: expected a value, found ','"),
        .init(config.replacingOccurrences("issuer = \"https://id.example.com/realms/corp\"\n", ""),
              #"config.toml:26: providers.corp.issuer: is required when kind is "oidc""#),
        .init(config.replacingOccurrences("[kiosk]", "[kiosk]\n[theme]"),
              "config.toml:7: theme: table is already defined at line 3"),
    ]

    @Test(arguments: brokenConfigs)
    func brokenConfigIsReportedExactly(_ golden: GoldenError) {
        let message = errorText {
            _ = try readProviders(TOMLParser.parse(golden.input, file: "config.toml"))
        }
        #expect(message == golden.expected)
    }

    static let theme = """
        # themes/midnight.toml
        name = "Midnight"

        [roles]
        accountSelected = { fg = "white", bg = "blue", bold = true }
        accountNormal   = { fg = "gray" }
        header          = { fg = "cyan", bold = true, underline = false }
        """

    @Test func themeReadsThroughAccessors() throws {
        let doc = try TOMLParser.parse(Self.theme, file: "themes/midnight.toml")
        var styles: [String: (fg: String?, bg: String?, bold: Bool)] = [:]
        for (role, style) in try doc.root.table("roles").allTables() {
            try style.rejectUnknownKeys(allowed: ["fg", "bg", "bold", "underline"])
            styles[role] = (try style.optionalString("fg"), try style.optionalString("bg"), try style.optionalBool("bold") ?? false)
        }
        #expect(try doc.root.table("roles").keys == ["accountSelected", "accountNormal", "header"])
        #expect(styles["accountSelected"]?.fg == "white" && styles["accountSelected"]?.bg == "blue")
        #expect(styles["accountSelected"]?.bold == true && styles["accountNormal"]?.bold == false)
        let broken = Self.theme.replacingOccurrences("bold = true }", "bolt = true }")
        let message = errorText {
            let style = try TOMLParser.parse(broken, file: "themes/midnight.toml").root.table("roles").table("accountSelected")
            try style.rejectUnknownKeys(allowed: ["fg", "bg", "bold", "underline"])
        }
        #expect(message == #"themes/midnight.toml:5: roles.accountSelected.bolt: unknown key (did you mean "bold"?)"#)
    }
}

extension String {
    /// Replaces every occurrence of `target` (which must occur) with `replacement`.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        let parts = self.split(separator: target, omittingEmptySubsequences: false)
        precondition(parts.count > 1, "\(target) not found")
        return parts.joined(separator: replacement)
    }
}
