import Configuration
import Foundation
import Testing
import ToolCredentials

@Suite("Configuration: [git], and git_hosts")
struct GitSectionTests {
    static let work = "[providers.work]\nkind = \"oidc\"\nissuer = \"https://login.example.com\"\nclient_id = \"c\"\n"

    @Test("identity_provider names a configured provider (Demo always is); set_identity is true unless turned off")
    func values() throws {
        #expect(try read(Self.work + "[git]\nidentity_provider = \"work\"\nset_identity = false\n").git
            == GitSettings(identityProvider: "work", setIdentity: false))
        #expect(try read("[git]\nidentity_provider = \"demo\"\n").git == GitSettings(identityProvider: "demo", setIdentity: true))
        #expect(try read("[git]\nset_identity = true\n").git == GitSettings())
        #expect(try read("[git]\n").git == GitSettings())
        #expect(try read("").git.setIdentity)
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

    @Test("git_hosts: hosts mean https; a server's root URL may be given, plain http only on loopback")
    func gitHosts() throws {
        let configuration = try read(Self.work + "git_hosts = [\"git.example.com\", \"code.example.com:8443\", \"http://127.0.0.1:3000\"]\n")
        #expect(configuration.providers.provider("work")?.gitHosts
            == ["https://git.example.com", "https://code.example.com:8443", "http://127.0.0.1:3000"].map { URL(string: $0)! })
        #expect(try read("[providers.demo]\ngit_hosts = [\"http://localhost:8080/\"]\n").providers.provider("demo")?.gitHosts.count == 1)
        #expect(try read(Self.work).providers.provider("work")?.gitHosts == [])
    }

    @Test("a git host that is not one is refused, naming the key", arguments: [
        ("git_hosts = [\"http://git.example.com\"]\n", "must be https"),
        ("git_hosts = [\"https://git.example.com/org/repo\"]\n", "is not a host or a server's root URL"),
        ("git_hosts = [\"https://user@git.example.com\"]\n", "is not a host or a server's root URL"),
        ("git_hosts = [\"\"]\n", "is not a host or a server's root URL"),
        ("git_hosts = [\"ftp://git.example.com\"]\n", "must be https, not ftp"),
        ("git_hosts = \"git.example.com\"\n", "expected an array"),
    ])
    func badGitHosts(line: String, expected: String) {
        let error = errorText(Self.work + line)
        #expect(error.hasPrefix("config.toml:5: providers.work.git_hosts: ") && error.contains(expected), "\(error)")
    }
}
