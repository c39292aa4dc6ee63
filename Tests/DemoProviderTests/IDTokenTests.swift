import DemoProvider
import Foundation
import JWTKit
import Testing

/// The claims the tests expect in an ID token.
struct IDClaims: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let name: String
    let email: String?
    let email_verified: Bool

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

@Suite("ID token")
struct IDTokenTests {
    @Test func idTokenVerifiesAgainstJWKS() async throws {
        try await withServer { h in
            let tokens = try await h.signIn(as: "alan")
            let jwksReply = try await HTTP.get(h.url("/jwks"))
            #expect(jwksReply.status == 200)
            let key = try #require((jwksReply.json["keys"] as? [[String: Any]])?.first)
            #expect(key["kty"] as? String == "EC")
            #expect(key["crv"] as? String == "P-256")
            #expect(key["alg"] as? String == "ES256")
            #expect(key["use"] as? String == "sig")
            let kid = try #require(key["kid"] as? String)

            let keys = try await JWTKeyCollection().add(jwksJSON: jwksReply.text)
            let claims = try await keys.verify(tokens.id_token, as: IDClaims.self)
            #expect(claims.iss.value == h.base.absoluteString)
            #expect(claims.aud.value == [h.clientID])
            #expect(claims.sub.value == "1912")
            #expect(claims.name == "Alan Turing")
            #expect(claims.email == "alan@demo.switchboard.test")
            #expect(claims.email_verified == false)
            #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == 3600)

            let header = try #require(tokens.id_token.split(separator: ".").first)
            let headerJSON = try #require(Data(base64URL: String(header)))
            let fields = try #require(try JSONSerialization.jsonObject(with: headerJSON) as? [String: Any])
            #expect(fields["kid"] as? String == kid)
            #expect(fields["alg"] as? String == "ES256")
        }
    }

    @Test func idTokenFromAnotherKeyDoesNotVerify() async throws {
        try await withServer { first in
            try await withServer { second in
                let tokens = try await first.signIn()
                let keys = try await JWTKeyCollection().add(jwksJSON: try await HTTP.get(second.url("/jwks")).text)
                await #expect(throws: (any Error).self) {
                    _ = try await keys.verify(tokens.id_token, as: IDClaims.self)
                }
            }
        }
    }
}

extension Data {
    /// Decodes unpadded base64url.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
