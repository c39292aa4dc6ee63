import Crypto
import Foundation
import JWTKit

/// The claims of the OpenID Connect ID tokens the demo provider issues.
struct IDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var name: String
    /// The person's short id (`ada`): the login git is given.
    var preferredUsername: String
    var email: String?
    var emailVerified: Bool

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, name, email
        case preferredUsername = "preferred_username"
        case emailVerified = "email_verified"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// The public half of the signing key, as published at `/jwks` (RFC 7517).
struct PublicJWK: Codable, Sendable, Equatable {
    var kty = "EC"
    var crv = "P-256"
    var x: String
    var y: String
    var kid: String
    var alg = "ES256"
    var use = "sig"
}

/// Signs ID tokens with a P-256 key made when the server starts.
struct Signer: Sendable {
    /// Lifetime of ID tokens, in seconds.
    static let idTokenLifetime: TimeInterval = 3600

    private let keys: JWTKeyCollection
    /// The public key, with its `kid` (the RFC 7638 thumbprint).
    let jwk: PublicJWK

    /// Generates a fresh ES256 key pair.
    static func generate() async -> Signer {
        let key = ES256PrivateKey()
        guard let (x, y) = key.parameters else { preconditionFailure("a P-256 key always has coordinates") }
        let kid = thumbprint(x: x, y: y)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        return Signer(keys: keys, jwk: PublicJWK(x: x, y: y, kid: kid))
    }

    /// A signed ID token for `person`, addressed to `audience` (the client id).
    func idToken(for person: DemoPerson, audience: String, issuer: String, at now: Date) async throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = IDTokenClaims(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: person.subject),
            aud: AudienceClaim(value: [audience]),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(Self.idTokenLifetime)),
            iat: IssuedAtClaim(value: issuedAt),
            name: person.name, preferredUsername: person.id, email: person.email, emailVerified: person.emailVerified)
        return try await keys.sign(claims, kid: JWKIdentifier(string: jwk.kid))
    }

    /// JWK thumbprint (RFC 7638): SHA-256 over the required members in lexical order.
    private static func thumbprint(x: String, y: String) -> String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Data(SHA256.hash(data: Data(canonical.utf8))).base64URLString()
    }
}
