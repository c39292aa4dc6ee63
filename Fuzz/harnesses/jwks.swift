import Foundation

/// A provider's key set read by `KeySet`, then a key chosen for tokens of
/// every accepted algorithm, by each kid the set names, by kids it does not,
/// and without a kid, as the id_token check does before any signature is
/// computed. An input whose first byte is even is the key set's bytes as
/// they are; one whose first byte is odd describes a key set (`described`),
/// so that keys of every shape, well-formed and not, are reached at once
/// rather than after the fuzzer has learnt JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWKS(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let body = data[0] & 1 == 0 ? Data(bytes) : described(bytes)
    guard let set = try? KeySet(json: body) else { return 0 }
    let kids = Set(set.usable.compactMap(\.kid) + set.skipped.compactMap(\.kid)).sorted() + ["", "absent"]
    for algorithm in KeySet.algorithms.sorted() + ["none", "HS256"] {
        for kid in kids.map(Optional.some) + [nil] {
            do {
                let keys = try set.candidates(algorithm: algorithm, kid: kid)
                precondition(!keys.isEmpty && keys.allSatisfy { $0.fits(algorithm) && (kid == nil || $0.kid == kid) })
            } catch {
                _ = error.description
            }
        }
    }
    for skipped in set.skipped { _ = skipped.reason.displaySafe }
    return 0
}

/// A key set as JSON, from bytes: keys separated by 0xFF; within a key, each
/// byte picks a member (its value mod the member count) and the next byte its
/// value: a word the format uses, a number or a list; or else a length the
/// formats use (coordinates, moduli, and wrong ones) and base64url or raw
/// text of that many of the bytes that follow (padded with 0xA5 when fewer).
func described(_ bytes: [UInt8]) -> Data {
    let members = ["kty", "kid", "use", "key_ops", "alg", "crv", "x", "y", "n", "e", "x5c", "k", "d"]
    let words: [Any] = [
        "RSA", "EC", "OKP", "oct", "sig", "enc", "verify", "RS256", "PS384", "ES256", "ES384", "ES512", "EdDSA", "RSA-OAEP", "none",
        "P-256", "P-384", "P-521", "Ed25519", "X25519", "secp256k1", "AQAB", "AQAA", "", 0, 65537, true, NSNull(), ["verify"], ["sign", "verify"], [1], [String: Any](),
    ]
    let lengths = [0, 1, 3, 31, 32, 33, 48, 64, 66, 128, 256, 257, 512, 2049]
    var keys: [Any] = []
    for chunk in bytes.split(separator: 0xFF, omittingEmptySubsequences: false) {
        var key: [String: Any] = [:]
        var rest = chunk[...]
        while let pick = rest.popFirst() {
            let member = members[Int(pick) % members.count]
            guard let choice = rest.popFirst() else { break }
            if Int(choice) < words.count {
                key[member] = words[Int(choice)]
                continue
            }
            let index = Int(choice) - words.count
            let count = lengths[index % lengths.count]
            var taken = Data(rest.prefix(count))
            rest = rest.dropFirst(taken.count)
            taken += Data(repeating: 0xA5, count: count - taken.count)
            key[member] = (index / lengths.count) % 2 == 0
                ? taken.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                : String(decoding: taken, as: UTF8.self)
        }
        keys.append(key)
    }
    return (try? JSONSerialization.data(withJSONObject: ["keys": keys])) ?? Data()
}
