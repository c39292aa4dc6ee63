/// BCH-coded format and version information (ISO/IEC 18004:2015, 7.9 and 7.10).
enum FormatInfo {
    /// The 15-bit format information for `level` and `mask`: 5 data bits,
    /// 10 BCH(15,5) check bits (generator 0x537), XOR-ed with 0x5412.
    static func formatBits(level: QRErrorCorrection, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 {
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18-bit version information for `version` (7...40): 6 data bits
    /// followed by 12 BCH(18,6) check bits (generator 0x1F25).
    static func versionBits(version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 {
            remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
        }
        return version << 12 | remainder
    }
}
