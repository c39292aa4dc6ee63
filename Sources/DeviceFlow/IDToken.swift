import Foundation
import JWTKit

/// The claims of an OpenID Connect id_token that Switchboard reads.
struct IDTokenClaims: JWTPayload {
    var iss: String?
    var sub: String?
    var aud: AudienceClaim?
    var exp: ExpirationClaim?
    var name: String?
    var preferred_username: String?
    var email: String?
    var email_verified: FlexibleBool?
    var oid: String?
    var tid: String?

    /// The signature is checked by jwt-kit; the claims are checked by
    /// `IDTokenVerifier` so each refusal can say which claim failed.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// A claim by name, for subject rules like Microsoft's `oid` + `tid`.
    func claim(_ name: String) -> String? {
        switch name {
        case "sub": sub
        case "oid": oid
        case "tid": tid
        default: nil
        }
    }
}

/// `email_verified` as a boolean or the string "true" (some providers).
struct FlexibleBool: Codable, Sendable {
    let value: Bool
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) { value = bool } else { value = (try? container.decode(String.self)) == "true" }
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Checks an id_token: signature against the issuer's JWKS, then `iss`,
/// `aud` and `exp` with a small clock skew.
struct IDTokenVerifier {
    let jwks: URL
    let issuer: String
    let clientID: String
    let transport: any HTTPTransport
    let now: Date
    /// Seconds of clock difference tolerated on `exp`.
    var leeway: TimeInterval = 60

    func verify(_ token: String) async throws(FlowFailure) -> IDTokenClaims {
        let response: HTTPResponse
        do { response = try await transport.send(HTTPRequest(url: jwks, headers: ["Accept": "application/json"])) } catch {
            throw FlowFailure(error)
        }
        guard response.status == 200 else { throw .unverifiable("the provider's keys (\(jwks)) answered HTTP \(response.status)") }
        let claims: IDTokenClaims
        do {
            let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: response.body, as: UTF8.self))
            claims = try await keys.verify(token, as: IDTokenClaims.self)
        } catch {
            throw .unverifiable("the id_token's signature does not match the provider's keys")
        }
        let expected = claims.tid.map { issuer.replacingOccurrences(of: "{tenantid}", with: $0) } ?? issuer
        guard let iss = claims.iss, trim(iss) == trim(expected) else {
            throw .unverifiable("the id_token was issued by \(claims.iss?.displaySafeSingleLine ?? "nobody"), not \(expected)")
        }
        guard let audience = claims.aud, audience.value.contains(clientID) else {
            throw .unverifiable("the id_token is for another client (aud \(claims.aud?.value.joined(separator: ",").displaySafeSingleLine ?? "missing")), not \(clientID)")
        }
        guard let exp = claims.exp, exp.value.addingTimeInterval(leeway) > now else {
            throw .unverifiable("the id_token expired\(claims.exp.map { " at \($0.value)" } ?? " (no exp)")")
        }
        guard claims.sub != nil else { throw .unverifiable("the id_token has no sub") }
        return claims
    }

    private func trim(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
}
