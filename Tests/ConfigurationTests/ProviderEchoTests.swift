import ConfigFile
import Testing

@Suite("Configuration: provider errors never repeat a value that could be a secret or an escape sequence")
struct ProviderEchoTests {
    @Test("a secret (with an escape sequence) under kind or issuer is named by key, never echoed", arguments: [
        ("kind = \"\\u001b]0;t\\u0007GOCSPX-pastedSECRET\"", "config.toml:2: providers.work.kind"),
        ("kind = \"oidc\"\nissuer = \"GOCSPX-pastedSECRET\\u001b[2J\"", "config.toml:3: providers.work.issuer: not a URL"),
        ("kind = \"oidc\"\nissuer = \"\\u001b]0;t\\u0007https://GOCSPX-pastedSECRET\"", "config.toml:3: providers.work.issuer: not a URL"),
    ])
    func notEchoed(lines: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try read("[providers.work]\n\(lines)\nclient_id = \"c\"") }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(expected), "\(text)")
        #expect(!text.contains("SECRET") && !text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text)")
    }

    @Test("a URL that is refused is named, and the rule said")
    func refusedURLNamed() {
        let error = #expect(throws: ConfigError.self) {
            try read("[providers.work]\nkind = \"oidc\"\nissuer = \"http://127.0.0.1.nip.io\"\nclient_id = \"c\"")
        }
        #expect(error?.description == "config.toml:3: providers.work.issuer: the URL http://127.0.0.1.nip.io must be https (plain http only on 127.0.0.1, ::1 or localhost)")
    }
}
