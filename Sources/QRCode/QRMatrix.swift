/// A finished QR Code symbol: a square grid of dark and light modules
/// without quiet zone.
///
/// Coordinates start at the top-left corner: `x` is the column, `y` the row.
public struct QRMatrix: Sendable, Equatable {
    /// Number of modules along each side (`4 * version + 17`).
    public let size: Int
    /// Symbol version, 1...40.
    public let version: Int
    /// Mask pattern applied to the data region, 0...7.
    public let mask: Int
    /// Error-correction level encoded in the format information.
    public let errorCorrection: QRErrorCorrection

    /// Row-major module colours; `true` is dark.
    private let modules: [Bool]

    init(size: Int, modules: [Bool], version: Int, mask: Int, errorCorrection: QRErrorCorrection) {
        precondition(modules.count == size * size, "module count must be size * size")
        self.size = size
        self.modules = modules
        self.version = version
        self.mask = mask
        self.errorCorrection = errorCorrection
    }

    /// Whether the module at column `x`, row `y` is dark.
    ///
    /// Coordinates outside `0..<size` are reported as light, which matches
    /// the quiet zone that surrounds every symbol.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}
