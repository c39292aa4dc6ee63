import ConfigFile
import Configuration
import DeviceFlow
import Testing

@Suite("Configuration: [providers]")
struct ProviderSectionTests {
    @Test("a good file: providers in file order, then Demo; secrets kept but never described")
    func good() throws {
        let configuration = try read("""
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
        let providers = configuration.providers
        #expect(providers.providers.map(\.id.rawValue) == ["work", "google", "gitlab", "demo"])
        #expect(providers.provider("google")?.kind == .google)
        #expect(providers.provider("work")?.scopes == ["openid", "email"])
        #expect(providers.providers.allSatisfy { $0.problem == nil })
        let client = ClientCredentials(clientID: "x", clientSecret: "s3cret")
        #expect(!"\(client)".contains("s3cret"))
        let posting = try read("[providers.work]\nkind = \"oidc\"\nissuer = \"https://x.test\"\nclient_id = \"c\"\nclient_auth = \"post\"")
        #expect(posting.providers.provider("work")?.clientAuthentication == .post)
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
        ("[providers.\"a b\"]\nkind = \"demo\"", "config.toml:1: providers.\"a b\": provider names may hold only letters, digits, - and _"),
        ("providers = 3", "config.toml:1: providers: expected a table, found an integer"),
        ("[providers.work]\nkind = \"oidc\"\nissuer = \"https://x.test\"\nclient_id = \"c\"\nclient_auth = \"jwt\"", "config.toml:5: providers.work.client_auth"),
    ])
    func mistakes(text: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try read(text) }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("an error about a secret's value never shows the secret")
    func secretNotShown() {
        let error = #expect(throws: ConfigError.self) {
            try read("[providers.google]\nclient_id = \"x\"\nclient_secret = GOCSPX-abcdefSECRET")
        }
        #expect(error?.description.hasPrefix("config.toml:3:17: providers.google.client_secret:") == true)
        #expect(error?.description.contains("SECRET") == false)
    }

    @Test("plain http is allowed on loopback only (the demo provider)")
    func loopback() throws {
        let configuration = try read("[providers.demo]\nissuer = \"http://127.0.0.1:9000\"")
        #expect(configuration.providers.providers.map(\.id) == ["demo"])
        #expect(configuration.providers.provider("demo")?.issuer?.port == 9000)
        #expect(configuration.providers.provider("demo")?.clientID == "switchboard-demo")
    }
}
