import Crypto
import _CryptoExtras
import Foundation

/// A PIN as it is kept: never the digits, only a salted slow hash with the
/// parameters that made it, so the work factor can be raised later without
/// invalidating PINs set before.
public struct StoredPIN: Sendable, Equatable {
    /// The key-derivation function; `pbkdf2-sha256` is the only one so far.
    public let algorithm: String
    /// PBKDF2 iterations.
    public let rounds: Int
    /// Random, 16 bytes, one per PIN.
    public let salt: [UInt8]
    /// The derived key, 32 bytes.
    public let hash: [UInt8]

    /// The algorithm new PINs are stored with.
    public static let currentAlgorithm = "pbkdf2-sha256"
    /// The iterations new PINs are stored with: OWASP's figure for
    /// PBKDF2-HMAC-SHA256.
    public static let defaultRounds = 600_000
    /// Bytes of salt for a new PIN.
    public static let saltBytes = 16

    /// A stored PIN read back from the store.
    public init(algorithm: String, rounds: Int, salt: [UInt8], hash: [UInt8]) {
        self.algorithm = algorithm
        self.rounds = rounds
        self.salt = salt
        self.hash = hash
    }

    /// Hashes `pin` (already checked with `PIN.validate`) with a fresh random
    /// salt. `rounds` below `defaultRounds` is only for tests.
    public init(hashing pin: String, rounds: Int = StoredPIN.defaultRounds) {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.init(algorithm: Self.currentAlgorithm, rounds: rounds, salt: salt,
                  hash: Self.derive(pin, salt: salt, rounds: rounds, algorithm: Self.currentAlgorithm) ?? [])
    }

    /// Whether `pin` is this PIN: derived again with the stored salt and
    /// parameters and compared in constant time. An unknown algorithm never matches.
    public func matches(_ pin: String) -> Bool {
        guard let derived = Self.derive(pin, salt: salt, rounds: rounds, algorithm: algorithm) else { return false }
        return Self.constantTimeEqual(derived, hash)
    }

    /// What `pin` derives to with a stored PIN's parameters and salt: what
    /// a store that never hands out the hash compares for a station (equal
    /// to the stored hash exactly when `pin` is the PIN). Nil for an
    /// unknown algorithm.
    public static func candidate(_ pin: String, algorithm: String, rounds: Int, salt: [UInt8]) -> [UInt8]? {
        derive(pin, salt: salt, rounds: rounds, algorithm: algorithm)
    }

    /// Whether `candidate` (what a PIN derives to with this PIN's parameters,
    /// `candidate(_:algorithm:rounds:salt:)`) is this PIN's hash, compared in
    /// constant time. An empty candidate (an unknown algorithm's) never matches.
    public func matches(candidate: [UInt8]) -> Bool {
        !candidate.isEmpty && Self.constantTimeEqual(candidate, hash)
    }

    /// Whether this PIN was stored with weaker parameters than new ones get
    /// with `rounds`.
    public func needsRehash(toward rounds: Int = StoredPIN.defaultRounds) -> Bool {
        algorithm != Self.currentAlgorithm || self.rounds < rounds
    }

    /// The most iterations a stored PIN is derived with: a row that asks for
    /// more (written by a hostile hand, to keep a station busy for minutes)
    /// matches nothing.
    public static let maximumRounds = 10 * defaultRounds

    static func derive(_ pin: String, salt: [UInt8], rounds: Int, algorithm: String) -> [UInt8]? {
        guard algorithm == currentAlgorithm, (1...maximumRounds).contains(rounds), !salt.isEmpty, salt.count <= 1024 else { return nil }
        guard let key = try? KDF.Insecure.PBKDF2.deriveKey(
            from: Array(pin.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        else { return nil }
        return key.withUnsafeBytes { Array($0) }
    }

    /// Compares every byte whatever the first difference, so the time taken
    /// says nothing about how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// The rules a PIN follows: four to twelve digits.
public enum PIN {
    /// The fewest digits a PIN has.
    public static let minimumLength = 4
    /// The most digits a PIN has.
    public static let maximumLength = 12

    /// Whether `text` is a PIN (`validate` says what is wrong when not).
    public static func isWellFormed(_ text: String) -> Bool {
        (try? validate(text, field: "PIN")) != nil
    }

    /// Checks `text` is a PIN; the error names `field` (e.g. "new PIN").
    public static func validate(_ text: String, field: String) throws(PINFormatError) {
        guard !text.isEmpty else { throw PINFormatError(field: field, problem: "is empty") }
        guard text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw PINFormatError(field: field, problem: "must be digits only (0-9)")
        }
        guard (minimumLength...maximumLength).contains(text.count) else {
            throw PINFormatError(field: field, problem: "must be \(minimumLength) to \(maximumLength) digits, not \(text.count)")
        }
    }
}

/// A PIN that breaks the rules; the message names the field, never the digits.
public struct PINFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which PIN: "new PIN", "current PIN", ….
    public let field: String
    /// What is wrong with it.
    public let problem: String
    /// "new PIN: must be 4 to 12 digits, not 3".
    public var description: String { "\(field): \(problem)" }
}
