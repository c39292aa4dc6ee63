import Foundation
import JWTKit

/// Checks an id_token: its signature with the issuer's key that the token
/// names (`KeySet`), then `iss`, `aud`, the time claims (`exp`, `nbf`,
/// `iat`, with a small clock skew) and `sub`. Each refusal says which part
/// failed: a key set without a usable key for the token is not a signature
/// mismatch.
struct IDTokenVerifier {
    let jwks: URL
    let issuer: String
    let clientID: String
    let transport: any HTTPTransport
    let now: Date
    /// Seconds of clock difference tolerated on `exp`, `nbf` and `iat`.
    var leeway: TimeInterval = 60

    /// The checked claims, with the key id and algorithm of the signature.
    struct Verified {
        let claims: IDTokenClaims
        let keyID: String?
        let algorithm: String
    }

    func verify(_ token: String) async throws(FlowFailure) -> IDTokenClaims {
        try await verified(token).claims
    }

    func verified(_ token: String) async throws(FlowFailure) -> Verified {
        let signed = try SignedToken(token, as: "the id_token")
        let keys = try await fetchKeys()
        try await checkSignature(signed, with: keys.candidates(algorithm: signed.algorithm, kid: signed.keyID))
        let claims: IDTokenClaims
        do { claims = try JSONDecoder().decode(IDTokenClaims.self, from: signed.payload) } catch {
            throw .unverifiable("the id_token's payload is not a JSON object of claims")
        }
        let expected = claims.tid.map { issuer.replacingOccurrences(of: "{tenantid}", with: $0) } ?? issuer
        guard let iss = claims.iss, trim(iss) == trim(expected) else {
            throw .unverifiable("the id_token was issued by \(claims.iss?.displaySafeSingleLine ?? "nobody"), not \(expected)")
        }
        guard let audience = claims.aud, audience.contains(clientID) else {
            throw .unverifiable("the id_token is for another client (aud \(claims.aud?.joined(separator: ",").displaySafeSingleLine ?? "missing")), not \(clientID)")
        }
        try claims.checkTimes(at: now, leeway: leeway)
        guard claims.sub != nil else { throw .unverifiable("the id_token has no sub") }
        return Verified(claims: claims, keyID: signed.keyID, algorithm: signed.algorithm)
    }

    private func fetchKeys() async throws(FlowFailure) -> KeySet {
        let response: HTTPResponse
        do { response = try await transport.send(HTTPRequest(url: jwks, headers: ["Accept": "application/json"])) } catch {
            throw FlowFailure(error)
        }
        guard response.status == 200 else { throw .unverifiable("the provider's keys (\(jwks)) answered HTTP \(response.status)") }
        return try KeySet(json: response.body)
    }

    /// Passes when one of `candidates` (the keys the token names, all for its
    /// algorithm) checks the signature. A key whose material the signature
    /// library cannot read is skipped; when that leaves none, there is no
    /// usable key, which is not a mismatch.
    private func checkSignature(_ signed: SignedToken, with candidates: [KeySet.Key]) async throws(FlowFailure) {
        var unreadable = 0
        for key in candidates {
            guard let algorithm = await Self.algorithm(for: key, as: signed.algorithm) else {
                unreadable += 1
                continue
            }
            if (try? algorithm.verify(signed.signature, signs: signed.signingInput)) == true { return }
        }
        if unreadable == candidates.count {
            let named = signed.keyID.map { "kid \($0.displaySafeSingleLine)" } ?? "an id_token without kid"
            throw .unverifiable("no usable key for \(named) among the provider's keys: its material is not a valid public key")
        }
        throw .unverifiable("the id_token's signature does not match the provider's keys")
    }

    /// The signature library's key for `key` and `name` (an algorithm `key`
    /// fits), or nil when it cannot read the key's material.
    private static func algorithm(for key: KeySet.Key, as name: String) async -> (any JWTAlgorithm)? {
        guard let algorithm = JWK.Algorithm(rawValue: name) else { return nil }
        let id = JWKIdentifier(string: "selected")
        let jwk: JWK =
            switch key.material {
            case .rsa(let modulus, let exponent): .rsa(algorithm, identifier: id, modulus: modulus, exponent: exponent)
            case .ec(let curve, let x, let y): .ecdsa(algorithm, identifier: id, x: x, y: y, curve: ECDSACurve(rawValue: curve))
            case .ed25519(let x): .octetKeyPair(algorithm, identifier: id, x: x, y: nil, curve: .ed25519)
            }
        let collection = JWTKeyCollection()
        do {
            try await collection.add(jwk: jwk)
            return try await collection.getKey(for: id, alg: name)
        } catch {
            return nil
        }
    }

    private func trim(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
}
