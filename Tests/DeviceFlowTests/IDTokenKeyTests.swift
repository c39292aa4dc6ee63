import Foundation
import Testing
@testable import DeviceFlow

/// Keys real providers publish beside their signing keys.
private var neighbours: [[String: Any]] {
    [
        ["kty": "RSA", "use": "enc", "kid": "enc-1", "e": "AQAB", "n": (Data([0xC1]) + Data(repeating: 0x5A, count: 255)).base64URLEncoded],
        ["kty": "EC", "crv": "secp256k1", "kid": "k1", "x": Data(repeating: 1, count: 32).base64URLEncoded, "y": Data(repeating: 2, count: 32).base64URLEncoded],
        ["kty": "RSA", "kid": "cert-only", "x5c": ["MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"]],
        ["kty": "RSA", "kid": "broken", "n": "%%%", "e": "AQAB"],
        ["kty": "PQC", "kid": "future"],
    ]
}

@Suite("id_token signatures: the key the token names, among keys that may not all be usable")
struct IDTokenKeyTests {
    @Test("a good key verifies among unusable ones, wherever it stands", arguments: 0...neighbours.count)
    func goodAmongBad(position: Int) async throws {
        let minter = await Minter.make(kid: "sig-1")
        var keys = neighbours
        keys.insert(minter.jwk, at: position)
        let claims = try await verifier(keys: ["keys": keys]).verify(minter.sign(goodClaims()))
        #expect(claims.sub == "s-1")
    }

    @Test("a token whose kid names only an unusable key: no usable key for that kid, never a signature mismatch",
          arguments: ["enc-1", "k1", "cert-only", "broken", "future"])
    func kidOfUnusableKey(kid: String) async throws {
        let minter = await Minter.make(kid: "sig-1")
        let token = try await minter.sign(goodClaims(), header: ["kid": kid])
        let error = await #expect(throws: FlowFailure.self) { try await verifier(keys: ["keys": neighbours + [minter.jwk]]).verify(token) }
        #expect(error?.description.contains("no usable key for kid \(kid) among the provider's keys: ") == true, "\(String(describing: error))")
        #expect(error?.description.contains("signature") == false)
    }

    @Test("a token without kid verifies with the one usable key for its alg; with none it says so")
    func noKid() async throws {
        let minter = await Minter.make(kid: "sig-1")
        let token = try await minter.sign(goodClaims(), header: [:])
        #expect(try await verifier(keys: ["keys": neighbours + [minter.jwk]]).verify(token).sub == "s-1")
        let other = await Minter.make(kid: "sig-2")
        #expect(try await verifier(keys: ["keys": [other.jwk] + neighbours + [minter.jwk]]).verify(token).sub == "s-1")
        await #expect(throws: FlowFailure.unverifiable("no usable key for an id_token without kid: the provider's keys have none for ES256")) {
            try await verifier(keys: ["keys": neighbours]).verify(token)
        }
    }

    @Test("a token signed by another key than the one its kid names is a signature mismatch")
    func mismatch() async throws {
        let published = await Minter.make(kid: "sig-1")
        let impostor = await Minter.make(kid: "sig-1")
        await #expect(throws: FlowFailure.unverifiable("the id_token's signature does not match the provider's keys")) {
            try await verifier(keys: ["keys": neighbours + [published.jwk]]).verify(impostor.sign(goodClaims()))
        }
    }

    @Test("a token's alg must be the one its key names: a key for ES384 does not check an ES256 token")
    func algOfKey() async throws {
        let minter = await Minter.make(kid: "sig-1")
        var jwk = minter.jwk
        jwk["alg"] = "ES384"
        let error = await #expect(throws: FlowFailure.self) { try await verifier(keys: ["keys": [jwk]]).verify(minter.sign(goodClaims())) }
        #expect(error?.description.contains("no usable key for kid sig-1") == true)
    }

    @Test("a key of the right shape whose material is not a valid public key (a point off the curve) is no usable key")
    func unreadableMaterial() async throws {
        let minter = await Minter.make(kid: "sig-1")
        var jwk = minter.jwk
        jwk["x"] = Data(repeating: 0xFF, count: 32).base64URLEncoded
        let error = await #expect(throws: FlowFailure.self) { try await verifier(keys: ["keys": [jwk]]).verify(minter.sign(goodClaims())) }
        #expect(error?.description.contains("no usable key for kid sig-1 among the provider's keys: its material is not a valid public key") == true,
                "\(String(describing: error))")
    }

    @Test("unsigned and symmetrically signed tokens are refused by their alg, whatever the keys", arguments: ["none", "HS256"])
    func refusedAlg(alg: String) async throws {
        let minter = await Minter.make(kid: "sig-1")
        let token = try await minter.sign(goodClaims(), header: ["kid": "sig-1", "alg": alg])
        await #expect(throws: FlowFailure.unverifiable("the id_token is signed with alg \(alg), which is not accepted")) {
            try await verifier(keys: ["keys": [minter.jwk]]).verify(token)
        }
    }

    @Test("a token that is not a compact JWS, or marks extensions critical, is refused for its form", arguments: [
        ("a.b", "not a signed JWT"), ("a.b.c.d.e", "not a signed JWT"), ("!!.e30.AA", "header is not base64url-encoded JSON"),
        ("\(Data("{\"kid\":\"k\"}".utf8).base64URLEncoded).e30.AA", "names no alg"),
        ("\(Data("{\"alg\":\"ES256\",\"crit\":[\"exp\"]}".utf8).base64URLEncoded).e30.AA", "critical"),
    ])
    func form(token: String, words: String) async throws {
        let error = await #expect(throws: FlowFailure.self) { try await verifier(keys: ["keys": [Any]()]).verify(token) }
        #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    }
}
