import DeviceFlow
import Foundation
import Testing
import ToolCredentials

@Suite("git servers: which provider's tokens a server takes")
struct GitServersTests {
    private func server(_ scheme: String, _ host: String) -> GitServer? { GitServer(scheme: scheme, hostAndPort: host) }

    @Test("a server is a scheme and host, the scheme's own port left out, the host's case ignored")
    func servers() throws {
        #expect(server("https", "GitHub.com")?.url == "https://github.com")
        #expect(server("https", "github.com:443") == server("https", "github.com"))
        #expect(server("https", "github.com:8443")?.url == "https://github.com:8443")
        #expect(server("http", "127.0.0.1:80")?.url == "http://127.0.0.1")
        #expect(server("http", "[::1]:3000")?.url == "http://[::1]:3000")
        #expect(server("http", "localhost:3000")?.url == "http://localhost:3000")
    }

    @Test("no token is offered in the clear beyond loopback, nor for a scheme or port that is not one",
          arguments: [("http", "github.com"), ("ssh", "github.com"), ("", "github.com"), ("https", "github.com:"), ("https", "github.com:99999"),
                      ("https", "github.com:x"), ("https", "[::1"), ("https", "[::1]x"), ("https", ":443"), ("http", "127.0.0.1.evil.test")])
    func refused(scheme: String, host: String) {
        #expect(server(scheme, host) == nil)
    }

    @Test("GitHub serves github.com and gist.github.com; GitLab its host; Demo its issuer; OpenID Connect only its git_hosts")
    func byKind() {
        #expect(GitServers.of(ProviderSettings(id: "github", kind: .github)).map(\.url) == ["https://github.com", "https://gist.github.com"])
        #expect(GitServers.of(ProviderSettings(id: "gitlab", kind: .gitlab)).map(\.url) == ["https://gitlab.com"])
        #expect(GitServers.of(ProviderSettings(id: "gl", kind: .gitlab, host: URL(string: "https://gitlab.example.org:8443")))
            .map(\.url) == ["https://gitlab.example.org:8443"])
        #expect(GitServers.of(.demo(issuer: URL(string: "http://127.0.0.1:9000")!)).map(\.url) == ["http://127.0.0.1:9000"])
        let work = ProviderSettings(
            id: "work", kind: .oidc, issuer: URL(string: "https://login.example.com"),
            gitHosts: [URL(string: "https://git.example.com")!, URL(string: "https://git.example.com:443")!, URL(string: "http://git.example.com")!])
        #expect(GitServers.of(work).map(\.url) == ["https://git.example.com"])
        #expect(GitServers.of(ProviderSettings(id: "google", kind: .google)).isEmpty)
    }

    @Test("a request names a server only with a usable host; the providers serving it come in their order")
    func requests() throws {
        let github = ProviderSettings(id: "github", kind: .github)
        let demo = ProviderSettings.demo(issuer: URL(string: "http://127.0.0.1:9000")!)
        let mirror = ProviderSettings(id: "mirror", kind: .oidc, issuer: URL(string: "https://id.example.com"), gitHosts: [URL(string: "https://github.com")!])
        let request = GitCredentialRequest(scheme: "https", host: "github.com")
        let found = try #require(GitServers.server(of: request))
        #expect(GitServers.providers(serving: found, among: [demo, github, mirror]) == ["github", "mirror"])
        #expect(GitServers.server(of: GitCredentialRequest(scheme: "https", host: "github.com\u{1B}")) == nil)
        #expect(GitServers.server(of: GitCredentialRequest(host: "github.com")) == nil)
        let loopback = try #require(GitServers.server(of: GitCredentialRequest(scheme: "http", host: "127.0.0.1:9000")))
        #expect(GitServers.providers(serving: loopback, among: [demo, github]) == ["demo"])
        let other = try #require(GitServers.server(of: GitCredentialRequest(scheme: "http", host: "127.0.0.1:9001")))
        #expect(GitServers.providers(serving: other, among: [demo, github]).isEmpty)
    }
}

@Suite("setup-git's entries")
struct GitHelperEntriesTests {
    let ours = GitHelperEntries.helper

    @Test("set up when Switchboard's helper is there with no empty helper after it")
    func setUp() {
        #expect(!GitHelperEntries.isSetUp([]))
        #expect(GitHelperEntries.additions(to: []) == ["", ours])
        #expect(GitHelperEntries.isSetUp(["", ours]))
        #expect(GitHelperEntries.additions(to: ["", ours]) == [])
        #expect(GitHelperEntries.isSetUp(["", ours, "cache"]))
        #expect(!GitHelperEntries.isSetUp(["", ours, ""]))
        #expect(GitHelperEntries.additions(to: ["", "!gh auth git-credential"]) == ["", ours])
        #expect(GitHelperEntries.key(for: GitServer(scheme: "https", hostAndPort: "github.com")!) == "credential.https://github.com.helper")
    }

    @Test("undoing takes out each of Switchboard's entries with the empty helper just before it, nothing else")
    func undo() {
        #expect(GitHelperEntries.undone(["", ours]) == [])
        #expect(GitHelperEntries.undone(["", "!gh auth git-credential", "", ours]) == ["", "!gh auth git-credential"])
        #expect(GitHelperEntries.undone(["cache", ours]) == ["cache"])
        #expect(GitHelperEntries.undone(["", ours, "store", "", ours]) == ["store"])
        #expect(GitHelperEntries.undone(["store"]) == ["store"])
    }
}
