/// Encodes data as a QR Code symbol (ISO/IEC 18004, 8-bit byte mode).
public enum QREncoder {
    /// Encodes `bytes` in byte mode.
    ///
    /// - Parameters:
    ///   - bytes: The payload, stored verbatim.
    ///   - errorCorrection: Error-correction level (default M).
    ///   - version: An exact version (1...40). When `nil`, the smallest
    ///     version from `minimumVersion` upward that holds the data is used.
    ///   - minimumVersion: Lower bound for automatic version selection
    ///     (1...40), e.g. to keep the symbol size stable. Ignored when
    ///     `version` is given.
    ///   - mask: A mask pattern (0...7) to force. When `nil`, all eight are
    ///     scored with the standard's penalty rules and the lowest is used.
    /// - Returns: The finished module matrix (without quiet zone).
    /// - Throws: ``QRError/invalidVersion(_:)``, ``QRError/invalidMask(_:)``,
    ///   or ``QRError/dataTooLong(bytes:capacity:)`` when the data does not
    ///   fit the requested version (or version 40).
    public static func encode(
        _ bytes: [UInt8],
        errorCorrection: QRErrorCorrection = .medium,
        version: Int? = nil,
        minimumVersion: Int = 1,
        mask: Int? = nil
    ) throws(QRError) -> QRMatrix {
        if let mask, !Masking.patterns.contains(mask) { throw .invalidMask(mask) }
        let chosenVersion = try selectVersion(
            byteCount: bytes.count, level: errorCorrection,
            version: version, minimumVersion: minimumVersion
        )

        let layout = ECCTable.layout(version: chosenVersion, level: errorCorrection)
        let data = Codewords.dataCodewords(bytes, version: chosenVersion, level: errorCorrection)
        let codewords = Codewords.interleave(data, layout: layout)

        var grid = ModuleGrid(version: chosenVersion)
        DataPlacement.place(codewords, into: &grid)

        let masked: (mask: Int, grid: ModuleGrid)
        if let mask {
            masked = (mask, Masking.apply(mask: mask, level: errorCorrection, to: grid))
        } else {
            masked = Masking.best(level: errorCorrection, for: grid)
        }
        return QRMatrix(
            size: grid.size, modules: masked.grid.dark,
            version: chosenVersion, mask: masked.mask, errorCorrection: errorCorrection
        )
    }

    /// Encodes the UTF-8 bytes of `text` in byte mode (no ECI header).
    /// Parameters and errors are as for the `[UInt8]` overload.
    public static func encode(
        _ text: String,
        errorCorrection: QRErrorCorrection = .medium,
        version: Int? = nil,
        minimumVersion: Int = 1,
        mask: Int? = nil
    ) throws(QRError) -> QRMatrix {
        try encode(
            Array(text.utf8), errorCorrection: errorCorrection,
            version: version, minimumVersion: minimumVersion, mask: mask
        )
    }

    /// Maximum number of bytes that `version` (1...40) holds in byte mode at `errorCorrection`.
    /// - Throws: ``QRError/invalidVersion(_:)`` for versions outside 1...40.
    public static func byteCapacity(version: Int, errorCorrection: QRErrorCorrection) throws(QRError) -> Int {
        guard versions.contains(version) else { throw .invalidVersion(version) }
        return Codewords.byteCapacity(version: version, level: errorCorrection)
    }

    /// All valid symbol versions.
    static let versions = 1...40

    private static func selectVersion(
        byteCount: Int, level: QRErrorCorrection, version: Int?, minimumVersion: Int
    ) throws(QRError) -> Int {
        if let version {
            guard versions.contains(version) else { throw .invalidVersion(version) }
            let capacity = Codewords.byteCapacity(version: version, level: level)
            guard byteCount <= capacity else { throw .dataTooLong(bytes: byteCount, capacity: capacity) }
            return version
        }
        guard versions.contains(minimumVersion) else { throw .invalidVersion(minimumVersion) }
        for candidate in minimumVersion...versions.upperBound
        where byteCount <= Codewords.byteCapacity(version: candidate, level: level) {
            return candidate
        }
        let capacity = Codewords.byteCapacity(version: versions.upperBound, level: level)
        throw .dataTooLong(bytes: byteCount, capacity: capacity)
    }
}
