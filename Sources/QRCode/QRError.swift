/// Errors thrown by ``QREncoder``.
public enum QRError: Error, Equatable, Sendable {
    /// The input needs `bytes` bytes but the allowed version(s) hold at most
    /// `capacity` bytes at the requested error-correction level.
    case dataTooLong(bytes: Int, capacity: Int)
    /// A requested version (or minimum version) is outside 1...40.
    case invalidVersion(Int)
    /// A requested mask pattern is outside 0...7.
    case invalidMask(Int)
}
