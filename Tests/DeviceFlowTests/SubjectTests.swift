import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// Who userinfo says signed in, on a loopback server answering `profile`.
private func identity(from profile: [String: Any]) async throws -> LinkedIdentity {
    let body = try JSONSerialization.data(withJSONObject: profile)
    let server = try FaultServer { _ in FaultServer.response(200, "application/json", body) }
    defer { server.stop() }
    let endpoints = ProviderEndpoints(deviceAuthorization: nil, token: server.baseURL.appendingPathComponent("token"),
                                      userinfo: server.baseURL.appendingPathComponent("userinfo"))
    let resolver = IdentityResolver(provider: "work", endpoints: endpoints, clientID: "c", transport: URLSessionTransport(timeout: 2))
    return try await resolver.identity(for: TokenSet(accessToken: "at"))
}

@Suite("A subject is taken whole or refused; names and emails never cut short")
struct SubjectTests {
    @Test("a subject holding a control or bidirectional character is refused, naming the field", arguments: [
        "victim\u{0}A", "victim\u{0}B-other", "victim\u{1B}[2J", "victim\u{85}", "victim\u{202E}", "victim\n",
    ])
    func refused(subject: String) async throws {
        do {
            let linked = try await identity(from: ["sub": subject])
            Issue.record("accepted \(linked.identity.subject.debugDescription)")
        } catch let failure as FlowFailure {
            guard case .unverifiable(let detail) = failure else { Issue.record("\(failure)"); return }
            #expect(detail.contains("sub") && detail.contains("control character"))
        }
    }

    @Test("names lose control characters but not the text after them; an email holding one is dropped")
    func namesAndEmails() async throws {
        let linked = try await identity(from: ["sub": "s-1", "name": "Ada\u{0} Lovelace\u{85}\u{200F}", "email": "ada\u{0}@x.test", "email_verified": true])
        #expect(linked.identity.subject == "s-1")
        #expect(linked.displayName == "Ada Lovelace\u{200F}")
        #expect(linked.email == nil && !linked.emailVerified)
    }
}
