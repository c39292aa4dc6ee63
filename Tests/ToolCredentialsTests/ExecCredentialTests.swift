import Foundation
import SwitchboardCore
import Testing
import ToolCredentials

@Suite("kubectl's ExecCredential")
struct ExecCredentialTests {
    @Test("the version kubectl asks for in KUBERNETES_EXEC_INFO; v1beta1 when it asks for none")
    func versions() throws {
        #expect(try ExecCredential.requestedVersion(info: nil).get() == .v1beta1)
        #expect(try ExecCredential.requestedVersion(info: "").get() == .v1beta1)
        let v1 = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#
        #expect(try ExecCredential.requestedVersion(info: v1).get() == .v1)
        let beta = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"cluster":{"server":"https://x"}}}"#
        #expect(try ExecCredential.requestedVersion(info: beta).get() == .v1beta1)
    }

    @Test("what cannot be read, or a version not written, is said, naming the variable or the version", arguments: [
        ("{", "KUBERNETES_EXEC_INFO cannot be read: it is not a JSON object"),
        ("[]", "KUBERNETES_EXEC_INFO cannot be read: it is not a JSON object"),
        (#"{"kind":"Pod","apiVersion":"v1"}"#, "KUBERNETES_EXEC_INFO cannot be read: its kind is not ExecCredential"),
        (#"{"kind":"ExecCredential"}"#, "KUBERNETES_EXEC_INFO cannot be read: it names no apiVersion"),
        (#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1alpha1\u001b[2J"}"#,
         "kubectl asked for client.authentication.k8s.io/v1alpha1, and switchboard writes client.authentication.k8s.io/v1 and"),
    ])
    func problems(info: String, expected: String) {
        guard case .failure(let problem) = ExecCredential.requestedVersion(info: info) else { Issue.record("read \(info)"); return }
        #expect(problem.description.hasPrefix(expected), "\(problem)")
    }

    @Test("a huge KUBERNETES_EXEC_INFO is refused unread")
    func huge() {
        let info = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","x":""# + String(repeating: "a", count: ExecCredential.infoLimit) + #""}"#
        #expect(throws: ExecCredential.Problem.unreadable("it is longer than \(ExecCredential.infoLimit) bytes")) {
            try ExecCredential.requestedVersion(info: info).get()
        }
    }

    @Test("the response: the version asked for, the token, and the expiry in RFC 3339 UTC, whole seconds")
    func response() throws {
        let text = ExecCredential.response(.v1, token: "eyJ.a.b", expiresAt: Date(timeIntervalSince1970: 1_700_000_000.75))
        #expect(!text.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["apiVersion"] as? String == "client.authentication.k8s.io/v1")
        #expect(object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["token"] as? String == "eyJ.a.b")
        #expect(status["expirationTimestamp"] as? String == "2023-11-14T22:13:20Z")
        let beta = ExecCredential.response(.v1beta1, token: "t", expiresAt: nil)
        #expect(beta == #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{},"status":{"token":"t"}}"#)
    }
}

@Suite("whose name and email commits carry")
struct CommitIdentityTests {
    static func linked(_ provider: ProviderID, _ email: String?, verified: Bool = true) -> LinkedIdentity {
        LinkedIdentity(identity: Identity(provider: provider, subject: "s-\(provider)"), email: email, emailVerified: verified)
    }

    @Test("identity_provider's verified email, else the first identity's with one; none without a verified email")
    func choice() {
        let account = Account(id: AccountID(1), name: "Ada Lovelace", identities: [
            Self.linked("github", "ada@unverified.test", verified: false), Self.linked("google", "ada@google.test"),
            Self.linked("work", "ada@work.test"),
        ])
        #expect(CommitIdentity.of(account, settings: GitSettings()) == CommitIdentity(name: "Ada Lovelace", email: "ada@google.test"))
        #expect(CommitIdentity.of(account, settings: GitSettings(identityProvider: "work"))?.email == "ada@work.test")
        #expect(CommitIdentity.of(account, settings: GitSettings(identityProvider: "github"))?.email == "ada@google.test")
        let unverified = Account(id: AccountID(2), name: "Alan", identities: [Self.linked("demo", "alan@x.test", verified: false)])
        #expect(CommitIdentity.of(unverified, settings: GitSettings()) == nil)
        #expect(CommitIdentity.of(Account(id: AccountID(3), name: "Nobody"), settings: GitSettings()) == nil)
    }

    @Test("a name or email git would take apart, or one with a control character, is not used")
    func hostile() {
        let angle = Account(id: AccountID(1), name: "Eve", identities: [Self.linked("demo", "eve@x.test> <root@x.test")])
        #expect(CommitIdentity.of(angle, settings: GitSettings()) == nil)
        let control = Account(id: AccountID(1), name: "Eve\u{1B}[2J", identities: [Self.linked("demo", "eve@x.test")])
        #expect(CommitIdentity.of(control, settings: GitSettings()) == nil)
        let spaced = Account(id: AccountID(1), name: "  Eve  ", identities: [Self.linked("demo", "eve@x.test")])
        #expect(CommitIdentity.of(spaced, settings: GitSettings())?.name == "Eve")
        #expect(CommitIdentity(name: "A", email: "a@x").variables.map(\.name) == CommitIdentity.variableNames)
    }
}
