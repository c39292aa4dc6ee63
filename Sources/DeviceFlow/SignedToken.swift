import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), as a provider sent it,
/// taken apart without trusting any of it: the header read, the payload
/// and signature decoded, nothing verified yet.
struct SignedToken: Sendable {
    /// The signature algorithm the header names (`alg`).
    let algorithm: String
    /// The key the header names (`kid`), when it names one.
    let keyID: String?
    /// The bytes the signature covers: `header.payload`, as sent.
    let signingInput: Data
    /// The decoded payload (the claims, for an id_token).
    let payload: Data
    /// The decoded signature.
    let signature: Data

    /// Takes `token` apart, or says what is wrong with its form. `what`
    /// names the token in messages ("the id_token").
    init(_ token: String, as what: String) throws(FlowFailure) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .unverifiable("\(what) is not a signed JWT (it has \(parts.count) dot-separated parts, not 3)")
        }
        guard let header = Data(base64URL: parts[0]),
            let fields = try? JSONSerialization.jsonObject(with: header) as? [String: Any]
        else { throw .unverifiable("\(what)'s header is not base64url-encoded JSON") }
        guard let payload = Data(base64URL: parts[1]) else { throw .unverifiable("\(what)'s payload is not base64url-encoded") }
        guard let signature = Data(base64URL: parts[2]) else { throw .unverifiable("\(what)'s signature is not base64url-encoded") }
        guard let algorithm = fields["alg"] as? String else { throw .unverifiable("\(what)'s header names no alg") }
        if fields["kid"] != nil, !(fields["kid"] is String) { throw .unverifiable("\(what)'s header has a kid that is not a string") }
        // RFC 7515 §4.1.11: extensions marked critical must be understood; none are.
        if fields["crit"] != nil { throw .unverifiable("\(what)'s header marks extensions critical (crit), which are not supported") }
        self.algorithm = algorithm
        keyID = fields["kid"] as? String
        signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.payload = payload
        self.signature = signature
    }
}

extension Data {
    /// Base64url without padding (RFC 7515 §2, RFC 4648 §5); trailing `=`
    /// padding is tolerated. Nil for any other character or an impossible
    /// length.
    init?(base64URL text: some StringProtocol) {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard body.utf8.allSatisfy({ byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
        }), body.utf8.count % 4 != 1 else { return nil }
        var base64 = String(body).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
