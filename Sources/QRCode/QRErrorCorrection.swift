/// QR Code error-correction level: how much of the symbol may be damaged and
/// still be decoded. Higher levels need larger symbols for the same data.
public enum QRErrorCorrection: Sendable, CaseIterable {
    /// Level L: about 7 % of codewords can be restored.
    case low
    /// Level M: about 15 % of codewords can be restored.
    case medium
    /// Level Q: about 25 % of codewords can be restored.
    case quartile
    /// Level H: about 30 % of codewords can be restored.
    case high

    /// Column index into the L, M, Q, H ordered tables.
    var tableIndex: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .quartile: 2
        case .high: 3
        }
    }

    /// The two error-correction bits of the format information
    /// (L = 01, M = 00, Q = 11, H = 10).
    var formatBits: Int {
        switch self {
        case .low: 1
        case .medium: 0
        case .quartile: 3
        case .high: 2
        }
    }
}
