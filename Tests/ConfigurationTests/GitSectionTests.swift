import Configuration
import Testing

@Suite("Configuration: [git]")
struct GitSectionTests {
    @Test("identity_provider names a configured provider (Demo always is); set_identity is false unless set")
    func values() throws {
        let work = "[providers.work]\nkind = \"oidc\"\nissuer = \"https://login.example.com\"\nclient_id = \"c\"\n"
        #expect(try read(work + "[git]\nidentity_provider = \"work\"\nset_identity = true\n").git
            == GitSettings(identityProvider: "work", setIdentity: true))
        #expect(try read("[git]\nidentity_provider = \"demo\"\n").git == GitSettings(identityProvider: "demo", setIdentity: false))
        #expect(try read("[git]\nset_identity = false\n").git == GitSettings())
        #expect(try read("[git]\n").git == GitSettings())
    }

    @Test("bad values are named by file, line and key", arguments: [
        ("[git]\nidentity_provider = \"work\"\n", "config.toml:2: git.identity_provider: expected one of \"demo\", found something else"),
        ("[providers.work]\nkind = \"oidc\"\nissuer = \"https://x.test\"\nclient_id = \"c\"\n\n[git]\nidentity_provider = \"wrok\"\n",
         "config.toml:7: git.identity_provider: expected one of \"work\", \"demo\", found something else (did you mean \"work\"?)"),
        ("[git]\nidentity_provider = 1\n", "config.toml:2: git.identity_provider: expected a string, found an integer"),
        ("[git]\n\nset_identity = \"yes\"\n", "config.toml:3: git.set_identity: expected a boolean (true or false), found a string"),
        ("git = []\n", "config.toml:1: git: expected a table, found an array"),
    ])
    func badValues(text: String, expected: String) {
        let error = errorText(text)
        #expect(error == expected || error.hasPrefix(expected), "\(error)")
    }
}
