import DemoProvider
import Foundation
import Testing
import TestSupport
@testable import DeviceFlow

/// A real id_token from the demo provider, and a verifier for it.
private func signedToken() async throws -> (DemoServer, URL, String, issuedAt: Date) {
    let rig = try await DemoRig(DemoSettings(interval: 5))
    let flow = rig.flow(clientID: "switchboard-test")
    let code = try await flow.requestCode()
    try await rig.server.approve(userCode: code.userCode, as: "zoe")
    guard case .approved(let tokens) = await flow.waitForApproval(), let idToken = tokens.idToken else {
        throw FlowFailure.invalidResponse("no id_token")
    }
    return (rig.server, rig.base, idToken, rig.clock.now())
}

private func verifier(_ base: URL, issuer: String? = nil, clientID: String = "switchboard-test", now: Date) -> IDTokenVerifier {
    IDTokenVerifier(
        jwks: base.appendingPathComponent("jwks"), issuer: issuer ?? base.absoluteString, clientID: clientID,
        transport: URLSessionTransport(timeout: 5), now: now)
}

@Suite("id_token checks")
struct IDTokenTests {
    @Test("a good token verifies: signature, iss, aud, exp; the subject is stable")
    func good() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        let claims = try await verifier(base, now: issuedAt).verify(token)
        #expect(claims.sub == "1994" && claims.name == "Zoë Ångström")
        await server.stop()
    }

    @Test("a tampered signature is refused")
    func tamperedSignature() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        var parts = token.split(separator: ".").map(String.init)
        let signature = Array(parts[2])
        parts[2] = String(signature.dropLast(4)) + (signature.suffix(4) == Array("AAAA") ? "BBBB" : "AAAA")
        await #expect(throws: FlowFailure.unverifiable("the id_token's signature does not match the provider's keys")) {
            try await verifier(base, now: issuedAt).verify(parts.joined(separator: "."))
        }
        await server.stop()
    }

    @Test("a tampered payload (another subject) is refused")
    func tamperedPayload() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        var parts = token.split(separator: ".").map(String.init)
        let payload = Data(base64URL: parts[1])!
        let changed = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "\"1994\"", with: "\"1815\"")
        parts[1] = Data(changed.utf8).base64URLEncoded
        await #expect(throws: FlowFailure.self) { try await verifier(base, now: issuedAt).verify(parts.joined(separator: ".")) }
        await server.stop()
    }

    @Test("a token for another client (aud) is refused with a clear message")
    func wrongAudience() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        let error = await #expect(throws: FlowFailure.self) { try await verifier(base, clientID: "someone-else", now: issuedAt).verify(token) }
        #expect(error?.description.contains("another client") == true)
        await server.stop()
    }

    @Test("a token from another issuer is refused with a clear message")
    func wrongIssuer() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        let error = await #expect(throws: FlowFailure.self) { try await verifier(base, issuer: "https://evil.example", now: issuedAt).verify(token) }
        #expect(error?.description.contains("was issued by") == true)
        await server.stop()
    }

    @Test("an expired token is refused; a minute of clock skew is tolerated")
    func expired() async throws {
        let (server, base, token, issuedAt) = try await signedToken()
        _ = try await verifier(base, now: issuedAt.addingTimeInterval(3600 + 30)).verify(token)
        let error = await #expect(throws: FlowFailure.self) { try await verifier(base, now: issuedAt.addingTimeInterval(3600 + 120)).verify(token) }
        #expect(error?.description.contains("expired") == true)
        await server.stop()
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
