import Foundation

/// A provider's key set (JWKS, RFC 7517) as read from hostile JSON: the
/// keys that can check a signature, and the others, each skipped on its own
/// with the reason. Real providers publish keys Switchboard cannot use
/// (encryption keys, other curves, certificates only); one of them never
/// spoils the rest. Only Foundation: the fuzzing harness compiles this file.
struct KeySet: Sendable {
    /// The signature algorithms an id_token may be signed with.
    static let algorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
    /// The curve each ECDSA algorithm needs, and its coordinates' length in bytes.
    static let curves: [String: (algorithm: String, bytes: Int)] = ["P-256": ("ES256", 32), "P-384": ("ES384", 48), "P-521": ("ES512", 66)]
    /// RSA moduli shorter are refused (as the signature library does); longer
    /// ones are not worth the time.
    static let modulusBits = 2048...16_384

    /// The public material of a usable key, as base64url text.
    enum Material: Sendable, Equatable {
        case rsa(modulus: String, exponent: String)
        case ec(curve: String, x: String, y: String)
        case ed25519(x: String)
    }

    /// A key that can check signatures.
    struct Key: Sendable, Equatable {
        let kid: String?
        /// The one algorithm the key is for, when it names one.
        let alg: String?
        let material: Material

        /// Whether this key can check a signature made with `algorithm`.
        func fits(_ algorithm: String) -> Bool {
            if let alg, alg != algorithm { return false }
            switch material {
            case .rsa: return algorithm.hasPrefix("RS") || algorithm.hasPrefix("PS")
            case .ec(let curve, _, _): return KeySet.curves[curve]?.algorithm == algorithm
            case .ed25519: return algorithm == "EdDSA"
            }
        }
    }

    /// A key that was skipped, and why ("it is for encryption").
    struct Skipped: Error, Sendable, Equatable {
        let kid: String?
        let reason: String
    }

    let usable: [Key]
    let skipped: [Skipped]

    /// Reads a key set. Only a body that is not a JSON object with a `keys`
    /// array is an error; each key that cannot be used is skipped.
    init(json: Data) throws(FlowFailure) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let keys = object["keys"] as? [Any]
        else { throw .unverifiable("the provider's keys are not a JSON key set (an object with a keys array)") }
        var usable: [Key] = []
        var skipped: [Skipped] = []
        for entry in keys {
            guard let fields = entry as? [String: Any] else {
                skipped.append(Skipped(kid: nil, reason: "it is not a JSON object"))
                continue
            }
            switch Self.read(fields) {
            case .success(let key): usable.append(key)
            case .failure(let skip): skipped.append(skip)
            }
        }
        self.usable = usable
        self.skipped = skipped
    }

    /// The keys to check a signature made with `algorithm` by the key named
    /// `kid` (every fitting key when the token names none), or why there is
    /// none: "no usable key for kid X among the provider's keys" with the
    /// reason, never a signature mismatch.
    func candidates(algorithm: String, kid: String?) throws(FlowFailure) -> [Key] {
        guard Self.algorithms.contains(algorithm) else {
            throw .unverifiable("the id_token is signed with alg \(algorithm.displaySafeSingleLine), which is not accepted")
        }
        guard let kid else {
            let fitting = usable.filter { $0.fits(algorithm) }
            if fitting.isEmpty {
                throw .unverifiable("no usable key for an id_token without kid: the provider's keys have none for \(algorithm)")
            }
            return fitting
        }
        let named = usable.filter { $0.kid == kid }
        let fitting = named.filter { $0.fits(algorithm) }
        if !fitting.isEmpty { return fitting }
        let shown = kid.displaySafeSingleLine
        let why: String
        if let key = named.first {
            why = key.alg.map { "the key with that kid is for \($0.displaySafeSingleLine), not \(algorithm)" } ?? "the key with that kid is not for \(algorithm)"
        } else if let skip = skipped.first(where: { $0.kid == kid }) {
            why = skip.reason
        } else {
            why = "none has that kid"
        }
        throw .unverifiable("no usable key for kid \(shown) among the provider's keys: \(why)")
    }

    /// One key, or why it is skipped.
    private static func read(_ fields: [String: Any]) -> Result<Key, Skipped> {
        let rawKid = fields["kid"]
        let kid = rawKid as? String
        func skip(_ reason: String) -> Result<Key, Skipped> { .failure(Skipped(kid: kid, reason: reason)) }
        if rawKid != nil, kid == nil { return skip("its kid is not a string") }
        if let use = fields["use"] {
            guard let use = use as? String else { return skip("its use is not a string") }
            if use != "sig" { return skip(use == "enc" ? "it is for encryption (use enc)" : "its use is \(use.displaySafeSingleLine), not sig") }
        }
        if let operations = fields["key_ops"] {
            guard let operations = operations as? [Any], !operations.contains(where: { !($0 is String) }) else {
                return skip("its key_ops is not a list of names")
            }
            if !operations.contains(where: { ($0 as? String) == "verify" }) { return skip("its key_ops does not include verify") }
        }
        let alg = fields["alg"]
        if alg != nil, !(alg is String) { return skip("its alg is not a string") }
        if let alg = alg as? String, !algorithms.contains(alg) { return skip("its alg \(alg.displaySafeSingleLine) is not a supported signature algorithm") }
        guard let kty = fields["kty"] as? String else { return skip("it has no kty") }
        func part(_ name: String) -> (text: String, bytes: Data)? {
            guard let text = fields[name] as? String, let bytes = Data(base64URL: text), !bytes.isEmpty else { return nil }
            return (text, bytes)
        }
        let material: Material
        switch kty {
        case "RSA":
            guard let n = part("n"), let e = part("e") else {
                return skip(fields["x5c"] != nil ? "it has only a certificate (x5c), no RSA n and e" : "its RSA n or e is missing or not base64url")
            }
            let modulus = n.bytes.drop { $0 == 0 }
            let bits = modulus.count * 8 - (modulus.first.map { $0.leadingZeroBitCount } ?? 8)
            guard modulusBits.contains(bits) else { return skip("its RSA modulus has \(bits) bits (\(modulusBits.lowerBound) to \(modulusBits.upperBound) are accepted)") }
            let exponent = e.bytes.drop { $0 == 0 }
            guard (1...8).contains(exponent.count), let last = exponent.last, last & 1 == 1, exponent.count > 1 || last > 1 else {
                return skip("its RSA exponent is not a usable public exponent")
            }
            material = .rsa(modulus: n.text, exponent: e.text)
        case "EC":
            guard let curve = fields["crv"] as? String else { return skip("it has no crv") }
            guard let size = curves[curve] else { return skip("its curve \(curve.displaySafeSingleLine) is not supported") }
            guard let x = part("x"), let y = part("y"), x.bytes.count == size.bytes, y.bytes.count == size.bytes else {
                return skip("its \(curve) coordinates are missing or not \(size.bytes) bytes")
            }
            material = .ec(curve: curve, x: x.text, y: y.text)
        case "OKP":
            guard let curve = fields["crv"] as? String else { return skip("it has no crv") }
            guard curve == "Ed25519" else { return skip("its curve \(curve.displaySafeSingleLine) is not supported") }
            guard let x = part("x"), x.bytes.count == 32 else { return skip("its Ed25519 x is missing or not 32 bytes") }
            material = .ed25519(x: x.text)
        default:
            return skip("its kty \(kty.displaySafeSingleLine) is not supported")
        }
        let key = Key(kid: kid, alg: alg as? String, material: material)
        if let alg = key.alg, !key.fits(alg) { return skip("its alg \(alg) does not fit its kty \(kty)") }
        return .success(key)
    }
}
