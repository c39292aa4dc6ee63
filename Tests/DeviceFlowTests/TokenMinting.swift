import Foundation
import JWTKit
@testable import DeviceFlow

/// Signs tokens with any header and claims, byte for byte, with a fresh
/// P-256 key: the tests' stand-in for a provider.
struct Minter {
    let keys: JWTKeyCollection
    /// The public key as a JWK, with `kid` and without `alg` or `use`.
    let jwk: [String: Any]

    static func make(kid: String) async -> Minter {
        let key = ES256PrivateKey()
        let (x, y) = key.parameters!
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: "minter"))
        return Minter(keys: keys, jwk: ["kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid])
    }

    /// A compact JWS of `claims` under `header` (alg ES256 unless given).
    func sign(_ claims: [String: Any], header: [String: Any]) async throws -> String {
        var header = header
        if header["alg"] == nil { header["alg"] = "ES256" }
        let input = try Self.segment(header) + "." + Self.segment(claims)
        let signature = try await keys.getKey(for: JWKIdentifier(string: "minter")).sign(Data(input.utf8))
        return input + "." + Data(signature).base64URLEncoded
    }

    /// A token whose header names this key's kid.
    func sign(_ claims: [String: Any]) async throws -> String {
        try await sign(claims, header: ["kid": jwk["kid"]!])
    }

    static func segment(_ object: [String: Any]) throws -> String {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).base64URLEncoded
    }
}

/// Answers every request with the same body: a key set, a profile.
struct FixedAnswer: HTTPTransport {
    let status: Int
    let body: Data

    init(_ status: Int = 200, json object: Any) {
        self.status = status
        body = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "application/json"], body: body)
    }
}

/// The moment the tests' tokens are checked at.
let checkedAt = Date(timeIntervalSince1970: 1_800_000_000)

/// Claims that pass every check at `checkedAt` for client "c" of "https://issuer.test".
func goodClaims(_ changes: [String: Any?] = [:]) -> [String: Any] {
    var claims: [String: Any] = [
        "iss": "https://issuer.test", "aud": "c", "sub": "s-1",
        "exp": checkedAt.timeIntervalSince1970 + 3600, "iat": checkedAt.timeIntervalSince1970 - 10,
    ]
    for (key, value) in changes { claims[key] = value }
    return claims
}

/// A verifier for "https://issuer.test" and client "c", at `now`, reading
/// its keys from `keys` (a JWKS object).
func verifier(keys: Any, now: Date = checkedAt) -> IDTokenVerifier {
    IDTokenVerifier(
        jwks: URL(string: "https://issuer.test/jwks")!, issuer: "https://issuer.test", clientID: "c",
        transport: FixedAnswer(json: keys), now: now)
}
