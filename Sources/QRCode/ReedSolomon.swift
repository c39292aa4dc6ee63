/// Arithmetic in GF(2^8) with the QR Code field polynomial
/// x^8 + x^4 + x^3 + x^2 + 1 (0x11D) and generator element α = 2.
enum GF256 {
    /// `exp[i]` = α^i, doubled in length so `exp[log a + log b]` needs no modulo.
    static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for i in 0..<255 {
            table[i] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for i in 255..<512 { table[i] = table[i - 255] }
        return table
    }()

    /// `log[a]` = i such that α^i = a (undefined for 0).
    static let log: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exp[i])] = i }
        return table
    }()

    /// Product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exp[log[Int(a)] + log[Int(b)]]
    }
}

/// Reed–Solomon error-correction codewords as used by QR Code.
enum ReedSolomon {
    /// Coefficients of the monic generator polynomial ∏(x − α^i), i in 0..<degree,
    /// highest power first with the leading 1 omitted (`degree` entries).
    static func generator(degree: Int) -> [UInt8] {
        precondition(degree >= 1 && degree <= 254, "degree out of range")
        var poly = [UInt8](repeating: 0, count: degree)
        poly[degree - 1] = 1 // start with the constant polynomial 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            // Multiply by (x − root); subtraction is XOR in GF(2^8).
            for j in 0..<degree {
                poly[j] = GF256.multiply(poly[j], root)
                if j + 1 < degree { poly[j] ^= poly[j + 1] }
            }
            root = GF256.multiply(root, 2)
        }
        return poly
    }

    /// Remainder of `data`·x^degree divided by the generator: the
    /// error-correction codewords for one block.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for i in 0..<generator.count {
                result[i] ^= GF256.multiply(generator[i], factor)
            }
        }
        return result
    }

    /// Convenience: error-correction codewords of `data` with `degree` EC codewords.
    static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
        remainder(data, generator: generator(degree: degree))
    }
}
