import Configuration
import DeviceFlow
import Foundation
import StationConfig
import SwitchboardCore
import TerminalUI
import ToolCredentials
import Testing

@Suite("Configuration: a whole file")
struct RealisticConfigurationTests {
    static let text = """
        # Switchboard on lab station 3
        theme = "high-contrast"

        [providers.work]
        kind = "oidc"
        name = "Example Corp"
        issuer = "https://login.example.com"
        client_id = "switchboard"
        scopes = ["openid", "profile", "email"]
        device_authorization_endpoint = "https://login.example.com/device"

        [providers.google]
        client_id = "123.apps.googleusercontent.com"
        client_secret = "GOCSPX-s3cret"

        [providers.microsoft]
        client_id = "00000000-0000-0000-0000-000000000000"
        tenant = "organizations"

        [providers.gitlab]
        client_id = "abc"
        host = "https://gitlab.example.org"

        [kiosk]
        idle_timeout = 300
        countdown = 20
        greeting = "Lab station 3"
        providers = ["work", "demo"]
        operator_key = "ctrl-o"
        remember_last = true
        power = { reboot = ["systemctl", "reboot"], poweroff = ["systemctl", "poweroff"] }
        command = ["/usr/local/bin/station-session", "--quiet"]

        [store]
        url = "postgresql://switchboard@db.example.org/lab?sslmode=verify-full"
        station = "lab-3"
        keep_events = "400d"

        [git]
        identity_provider = "work"
        set_identity = true
        """

    @Test("every section is read into the value its module takes")
    func everySection() throws {
        let configuration = try read(Self.text)
        #expect(configuration.file == "config.toml")
        #expect(configuration.warnings.isEmpty)

        #expect(configuration.theme == ThemeRequest("high-contrast", source: "config.toml:2: theme"))
        #expect(configuration.theme?.reference == .builtIn("high-contrast"))

        let providers = configuration.providers
        #expect(providers.providers.map(\.id) == ["work", "google", "microsoft", "gitlab", "demo"])
        #expect(providers.provider("work") == ProviderSettings(
            id: "work", kind: .oidc, clientID: "switchboard", issuer: URL(string: "https://login.example.com"),
            scopes: ["openid", "profile", "email"], deviceAuthorizationEndpoint: URL(string: "https://login.example.com/device"),
            displayName: "Example Corp"))
        #expect(providers.provider("google")?.kind == .google && providers.provider("google")?.clientSecret == "GOCSPX-s3cret")
        #expect(providers.provider("microsoft")?.tenant == "organizations")
        #expect(providers.provider("gitlab")?.host == URL(string: "https://gitlab.example.org"))
        #expect(providers.providers.allSatisfy { $0.problem == nil })

        #expect(configuration.kiosk == StationSettings(
            idleTimeout: 300, countdown: 20, greeting: "Lab station 3", providers: ["work", "demo"], operatorKey: .control("o"),
            rememberLast: true, power: StationPower(reboot: ["systemctl", "reboot"], powerOff: ["systemctl", "poweroff"]),
            command: ["/usr/local/bin/station-session", "--quiet"]))

        #expect(configuration.store == StoreSettings(
            url: "postgresql://switchboard@db.example.org/lab?sslmode=verify-full", station: "lab-3", keepEvents: .seconds(400 * 86_400)))
        #expect(configuration.git == GitSettings(identityProvider: "work", setIdentity: true))
    }

    @Test("an empty file: the defaults, Demo the only provider")
    func empty() throws {
        let configuration = try read("")
        #expect(configuration.providers.providers.map(\.id) == ["demo"])
        #expect(configuration.theme == nil)
        #expect(configuration.kiosk == StationSettings())
        #expect(configuration.store == StoreSettings())
        #expect(configuration.git == GitSettings())
    }

    @Test("a table or key the program does not know is refused at its line, a near miss suggested", arguments: [
        ("theme = \"light\"\n\n[stor]\nurl = \"https://x.test\"", "config.toml:3: stor: unknown key (did you mean \"store\"?)"),
        ("[gti]\nset_identity = true", "config.toml:1: gti: unknown key (did you mean \"git\"?)"),
        ("[provider.work]\nkind = \"oidc\"", "config.toml:1: provider: unknown key (did you mean \"providers\"?)"),
        ("[colours]\nx = 1", "config.toml:1: colours: unknown key (allowed keys: providers, theme, kiosk, store, git)"),
        ("[store]\nkeep = \"400d\"", "config.toml:2: store.keep: unknown key (allowed keys: url, station, keep_events, timeout, watch, poll_interval)"),
        ("[git]\nidentity_provder = \"work\"", "config.toml:2: git.identity_provder: unknown key (did you mean \"identity_provider\"?)"),
    ])
    func unknownKeys(text: String, expected: String) {
        #expect(errorText(text) == expected)
    }
}
