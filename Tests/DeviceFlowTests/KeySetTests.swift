import Foundation
import Testing
@testable import DeviceFlow

/// A well-formed P-256 key (coordinates of the right length; the point is
/// not checked here).
private func ecKey(kid: String, _ extra: [String: Any] = [:]) -> [String: Any] {
    let coordinate = Data(repeating: 7, count: 32).base64URLEncoded
    return ["kty": "EC", "crv": "P-256", "x": coordinate, "y": coordinate, "kid": kid].merging(extra) { $1 }
}

private let modulus2048 = (Data([0xC1]) + Data(repeating: 0x5A, count: 255)).base64URLEncoded

/// Keys a real provider may publish that cannot check a signature, each
/// with words its reason must hold.
private var unusableKeys: [(String, [String: Any], String)] {
    [
        ("an encryption key", ["kty": "RSA", "use": "enc", "n": modulus2048, "e": "AQAB", "kid": "bad"], "encryption"),
        ("a use that is not sig", ecKey(kid: "bad", ["use": "wrap"]), "not sig"),
        ("key_ops without verify", ecKey(kid: "bad", ["key_ops": ["encrypt", "wrapKey"]]), "verify"),
        ("key_ops that is not a list", ecKey(kid: "bad", ["key_ops": "verify"]), "key_ops"),
        ("an unsupported curve", ecKey(kid: "bad", ["crv": "secp256k1"]), "secp256k1"),
        ("an X25519 key", ["kty": "OKP", "crv": "X25519", "x": Data(repeating: 1, count: 32).base64URLEncoded, "kid": "bad"], "X25519"),
        ("a certificate only", ["kty": "RSA", "x5c": ["MIIB"], "kid": "bad"], "x5c"),
        ("a modulus that is not base64url", ["kty": "RSA", "n": "not base64!", "e": "AQAB", "kid": "bad"], "RSA n or e"),
        ("a 512-bit modulus", ["kty": "RSA", "n": Data(repeating: 0xC1, count: 64).base64URLEncoded, "e": "AQAB", "kid": "bad"], "512 bits"),
        ("an even exponent", ["kty": "RSA", "n": modulus2048, "e": "AQAA", "kid": "bad"], "exponent"),
        ("an unknown kty", ["kty": "PQC", "kid": "bad"], "kty PQC"),
        ("a symmetric key", ["kty": "oct", "k": "c2VjcmV0", "kid": "bad"], "kty oct"),
        ("no kty", ["kid": "bad", "n": modulus2048], "no kty"),
        ("an encryption algorithm", ["kty": "RSA", "alg": "RSA-OAEP", "n": modulus2048, "e": "AQAB", "kid": "bad"], "RSA-OAEP"),
        ("an alg of another kty", ecKey(kid: "bad", ["alg": "RS256"]), "does not fit"),
        ("short coordinates", ecKey(kid: "bad", ["x": "AAAA"]), "32 bytes"),
        ("a kid that is a number", ecKey(kid: "x", ["kid": 7]), "kid"),
    ]
}

@Suite("Key sets: keys that cannot check signatures are skipped one by one")
struct KeySetTests {
    @Test("a key set mixing one unusable key with a good one keeps the good one and says why the other went",
          arguments: unusableKeys.indices)
    func mixed(index: Int) throws {
        let (_, bad, reason) = unusableKeys[index]
        let good = ecKey(kid: "good")
        for order in [[bad, good], [good, bad]] {
            let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": order]))
            #expect(set.usable.map(\.kid) == ["good"])
            #expect(set.skipped.count == 1)
            #expect(set.skipped.first?.reason.contains(reason) == true, "\(set.skipped)")
        }
    }

    @Test("every unusable key at once still leaves the good ones usable")
    func allAtOnce() throws {
        let keys = unusableKeys.map(\.1) + [ecKey(kid: "good"), ecKey(kid: "other", ["use": "sig", "key_ops": ["verify"], "alg": "ES256"])]
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": keys + [42, "text", NSNull()]]))
        #expect(set.usable.map(\.kid) == ["good", "other"])
        #expect(set.skipped.count == unusableKeys.count + 3)
    }

    @Test("a token whose kid names only an unusable key: no usable key for that kid, with the reason", arguments: unusableKeys.indices)
    func kidOfUnusableKey(index: Int) throws {
        let (_, bad, reason) = unusableKeys[index]
        guard let kid = bad["kid"] as? String else { return }
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": [bad, ecKey(kid: "good")]]))
        let error = #expect(throws: FlowFailure.self) { try set.candidates(algorithm: "ES256", kid: kid) }
        #expect(error?.description.contains("no usable key for kid \(kid) among the provider's keys: ") == true)
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }

    @Test("the key is picked by kid, and by alg when the key names one")
    func pickedByKidAndAlg() throws {
        let keys = [
            ecKey(kid: "a", ["use": "enc"]), ecKey(kid: "a", ["alg": "ES256"]), ecKey(kid: "b"),
            ecKey(kid: "p384", ["crv": "P-384", "x": Data(repeating: 1, count: 48).base64URLEncoded, "y": Data(repeating: 1, count: 48).base64URLEncoded]),
        ]
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": keys]))
        #expect(try set.candidates(algorithm: "ES256", kid: "a").map(\.alg) == ["ES256"])
        #expect(try set.candidates(algorithm: "ES256", kid: "b").map(\.kid) == ["b"])
        #expect(try set.candidates(algorithm: "ES384", kid: "p384").map(\.kid) == ["p384"])
        #expect(throws: FlowFailure.unverifiable("no usable key for kid a among the provider's keys: the key with that kid is for ES256, not ES384")) {
            try set.candidates(algorithm: "ES384", kid: "a")
        }
        #expect(throws: FlowFailure.unverifiable("no usable key for kid b among the provider's keys: the key with that kid is not for RS256")) {
            try set.candidates(algorithm: "RS256", kid: "b")
        }
        #expect(throws: FlowFailure.unverifiable("no usable key for kid c among the provider's keys: none has that kid")) {
            try set.candidates(algorithm: "ES256", kid: "c")
        }
    }

    @Test("a token without kid is checked with every usable key for its alg; none is no usable key, not a mismatch")
    func noKid() throws {
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": [ecKey(kid: "a"), ecKey(kid: "b", ["use": "enc"]), ecKey(kid: "c")]]))
        #expect(try set.candidates(algorithm: "ES256", kid: nil).map(\.kid) == ["a", "c"])
        #expect(throws: FlowFailure.unverifiable("no usable key for an id_token without kid: the provider's keys have none for PS256")) {
            try set.candidates(algorithm: "PS256", kid: nil)
        }
    }

    @Test("algorithms other than the asymmetric signature ones are never accepted", arguments: ["none", "HS256", "RSA-OAEP", "", "es256"])
    func refusedAlgorithms(alg: String) throws {
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": [ecKey(kid: "a")]]))
        let error = #expect(throws: FlowFailure.self) { try set.candidates(algorithm: alg, kid: "a") }
        #expect(error?.description.contains("which is not accepted") == true)
    }

    @Test("a body that is not a key set is refused as such", arguments: ["", "[]", "{}", #"{"keys":{}}"#, "<html>", #"{"keys":"x"}"#])
    func notAKeySet(body: String) {
        #expect(throws: FlowFailure.unverifiable("the provider's keys are not a JSON key set (an object with a keys array)")) {
            try KeySet(json: Data(body.utf8))
        }
    }

    @Test("hostile text in a kid or a reason reaches messages only display-safe")
    func hostileText() throws {
        let set = try KeySet(json: JSONSerialization.data(withJSONObject: ["keys": [ecKey(kid: "k\u{1B}[2J", ["crv": "P-\u{1B}]0;x\u{07}"])]]))
        let error = #expect(throws: FlowFailure.self) { try set.candidates(algorithm: "ES256", kid: "k\u{1B}[2J") }
        #expect(error?.description.contains("\u{1B}") == false)
    }
}
