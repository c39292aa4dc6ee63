import ConfigFile
import Foundation
import Testing
@testable import DeviceFlow

private func load(_ text: String) throws(ConfigError) -> ProviderConfiguration {
    try ProviderConfiguration.parse(TOMLParser.parse(text, file: "config.toml"))
}

@Suite("Provider configuration")
struct ConfigurationTests {
    @Test("a good file: providers in file order, then Demo; secrets kept but never described")
    func good() throws {
        let configuration = try load("""
            theme = "light"

            [providers.work]
            kind = "oidc"
            issuer = "https://login.example.com"
            client_id = "switchboard"
            scopes = ["openid", "email"]

            [providers.google]
            client_id = "123.apps.googleusercontent.com"
            client_secret = "s3cret"

            [providers.gitlab]
            client_id = "abc"
            host = "https://gitlab.example.org"
            """)
        #expect(configuration.providers.map(\.id.rawValue) == ["work", "google", "gitlab", "demo"])
        #expect(configuration.provider("google")?.kind == .google)
        #expect(configuration.provider("work")?.scopes == ["openid", "email"])
        #expect(configuration.providers.allSatisfy { $0.problem == nil })
        let client = ClientCredentials(clientID: "x", clientSecret: "s3cret")
        #expect(!"\(client)".contains("s3cret"))
    }

    @Test("each mistake names file, line and key", arguments: [
        ("[providers.work]\nkind = \"okta\"\nclient_id = \"c\"", "config.toml:2: providers.work.kind"),
        ("[providers.work]\nkind = \"oidc\"\nclient_id = \"c\"", "config.toml:1: providers.work.issuer: missing"),
        ("[providers.google]\nclient_id = \"c\"", "config.toml:1: providers.google.client_secret: missing"),
        ("[providers.work]\nkind = \"oidc\"\nissuer = \"http://login.example.com\"\nclient_id = \"c\"", "config.toml:3: providers.work.issuer: the URL http://login.example.com must be https"),
        ("[providers.work]\nkind = \"oidc\"\nissuer = \"https://x.test\"\nclientid = \"c\"", "config.toml:4: providers.work.clientid: unknown key (did you mean \"client_id\"?)"),
        ("[providers.work]\nkind = \"oidc\"\nissuer = \"https://x.test\"\nclient_id = 7", "config.toml:4: providers.work.client_id: expected a string"),
        ("[provider.work]\nkind = \"oidc\"", "config.toml:1: provider"),
        ("[providers.mine]\nclient_id = \"c\"", "config.toml:1: providers.mine.kind: missing"),
    ])
    func mistakes(text: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try load(text) }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("an error about a secret's value never shows the secret")
    func secretNotShown() {
        let error = #expect(throws: ConfigError.self) {
            try load("[providers.google]\nclient_id = \"x\"\nclient_secret = GOCSPX-abcdefSECRET")
        }
        #expect(error?.description.hasPrefix("config.toml:3:17: providers.google.client_secret:") == true)
        #expect(error?.description.contains("SECRET") == false)
    }

    @Test("plain http is allowed on loopback only (the demo provider)")
    func loopback() throws {
        let configuration = try load("[providers.demo]\nissuer = \"http://127.0.0.1:9000\"")
        #expect(configuration.providers.map(\.id) == ["demo"])
        #expect(configuration.provider("demo")?.issuer?.port == 9000)
    }

    @Test("a missing file gives the defaults; only a named one is worth a notice, which names it")
    func missingFile() throws {
        #expect(try ProviderConfiguration.load(path: "/nonexistent/config.toml").providers.map(\.id) == ["demo"])
        let notice = ProviderConfiguration.missingFileNotice(explicit: "/nonexistent/config.toml", environment: [:])
        #expect(notice == "/nonexistent/config.toml: no such configuration file; using the defaults")
        #expect(ProviderConfiguration.missingFileNotice(explicit: nil, environment: ["SWITCHBOARD_CONFIG": "/nonexistent/b.toml"])?
            .hasPrefix("/nonexistent/b.toml") == true)
        #expect(ProviderConfiguration.missingFileNotice(explicit: nil, environment: ["HOME": "/nonexistent"]) == nil, "the default file may be absent")
    }
}
