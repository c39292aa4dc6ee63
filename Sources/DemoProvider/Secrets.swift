import Foundation

/// Random secrets and the user-code format of RFC 8628 §6.1.
enum Secrets {
    /// The 20 consonants of RFC 8628 §6.1: no vowels (no accidental words), no look-alikes.
    static let userCodeAlphabet: [Character] = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// `count` bytes from the system CSPRNG, base64url-encoded without padding.
    static func token(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URLString()
    }

    /// A fresh user code in canonical form: 8 letters, no dash (see ``display(_:)``).
    static func userCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in userCodeAlphabet.randomElement(using: &generator)! })
    }

    /// The user code as shown to people: `BCDF-GHJK`.
    static func display(_ canonical: String) -> String {
        guard canonical.count == 8 else { return canonical }
        return "\(canonical.prefix(4))-\(canonical.suffix(4))"
    }

    /// Canonical form of what a person typed: upper-cased, dashes and spaces removed.
    /// Returns nil when the result cannot be a user code.
    static func canonicalUserCode(_ typed: String) -> String? {
        let letters = typed.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard letters.count == 8, letters.allSatisfy(userCodeAlphabet.contains) else { return nil }
        return letters
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5), as used by JOSE and OAuth.
    func base64URLString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
