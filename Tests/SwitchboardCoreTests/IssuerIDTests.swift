import Testing
import SwitchboardCore

@Suite("An issuer named by URL is a provider keyed by the whole normalised issuer")
struct IssuerIDTests {
    @Test("scheme and host in lower case, default port dropped, other ports kept, no trailing slash", arguments: [
        ("HTTPS://Login.Example.COM/", "https://login.example.com"),
        ("https://login.example.com:443/tenant/", "https://login.example.com/tenant"),
        ("https://login.example.com:8443/tenant//", "https://login.example.com:8443/tenant"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
        ("http://127.0.0.1:8628", "http://127.0.0.1:8628"),
        ("https://login.example.com/Tenant/v2.0", "https://login.example.com/Tenant/v2.0"),
        ("http://[::1]:9000/x", "http://[::1]:9000/x"),
    ])
    func normalised(text: String, expected: String) {
        #expect(ProviderID(issuer: text)?.rawValue == expected)
    }

    @Test("two issuers on one host are two providers")
    func distinct() {
        let ids = ["https://h.example/a", "https://h.example/b", "https://h.example:8443/a", "http://h.example/a"].compactMap { ProviderID(issuer: $0) }
        #expect(Set(ids).count == 4)
    }

    @Test("not an issuer", arguments: ["login.example.com", "ftp://h.example", "https://", "https://u:p@h.example", "https://h.example/?x=1", "https://h.example/#f", "https://h.example:x/"])
    func refused(text: String) { #expect(ProviderID(issuer: text) == nil) }

    @Test("provider:subject with an issuer as provider: it ends after its host, port and path", arguments: [
        ("https://h.example:8443/t:sub:x", "https://h.example:8443/t", "sub:x"),
        ("https://h.example:sub", "https://h.example", "sub"),
        ("http://127.0.0.1:8628:1994", "http://127.0.0.1:8628", "1994"),
        ("https://h.example/a/b:victim", "https://h.example/a/b", "victim"),
        ("github:583231", "github", "583231"),
        ("microsoft:oid:tid", "microsoft", "oid:tid"),
    ])
    func parsing(text: String, provider: String, subject: String) {
        let identity = Identity(parsing: text)
        #expect(identity?.provider.rawValue == provider && identity?.subject == subject)
        #expect(identity?.description == text)
    }
}
