/// Byte-mode data encoding, padding, Reed–Solomon blocks and interleaving.
enum Codewords {
    /// Mode indicator for 8-bit byte mode.
    static let byteModeIndicator = 0b0100

    /// Bits of the byte-mode character count indicator: 8 for versions 1–9,
    /// 16 for versions 10–40.
    static func characterCountBits(version: Int) -> Int {
        version <= 9 ? 8 : 16
    }

    /// Maximum number of input bytes that fit `version` at `level` in byte mode.
    static func byteCapacity(version: Int, level: QRErrorCorrection) -> Int {
        let dataBits = ECCTable.layout(version: version, level: level).dataCodewords * 8
        let headerBits = 4 + characterCountBits(version: version)
        return max(0, (dataBits - headerBits) / 8)
    }

    /// Data codewords for `bytes`: mode, count, data, terminator, bit padding
    /// and the alternating 0xEC / 0x11 pad codewords.
    /// The caller guarantees that the data fits.
    static func dataCodewords(_ bytes: [UInt8], version: Int, level: QRErrorCorrection) -> [UInt8] {
        let capacityBits = ECCTable.layout(version: version, level: level).dataCodewords * 8
        var buffer = BitBuffer()
        buffer.append(byteModeIndicator, length: 4)
        buffer.append(bytes.count, length: characterCountBits(version: version))
        for byte in bytes { buffer.append(Int(byte), length: 8) }
        precondition(buffer.count <= capacityBits, "data does not fit the version")

        buffer.append(0, length: min(4, capacityBits - buffer.count)) // terminator
        buffer.append(0, length: (8 - buffer.count % 8) % 8)           // to a byte boundary
        var codewords = buffer.bytes
        var pad: UInt8 = 0xEC
        while codewords.count * 8 < capacityBits {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits `data` into blocks, appends Reed–Solomon codewords and
    /// interleaves everything into the final codeword sequence.
    static func interleave(_ data: [UInt8], layout: BlockLayout) -> [UInt8] {
        precondition(data.count == layout.dataCodewords, "wrong number of data codewords")
        let generator = ReedSolomon.generator(degree: layout.ecCodewordsPerBlock)
        var dataBlocks: [[UInt8]] = []
        var ecBlocks: [[UInt8]] = []
        var offset = 0
        for length in layout.dataBlockLengths {
            let block = Array(data[offset..<offset + length])
            offset += length
            dataBlocks.append(block)
            ecBlocks.append(ReedSolomon.remainder(block, generator: generator))
        }

        var result: [UInt8] = []
        result.reserveCapacity(layout.totalCodewords)
        let longest = dataBlocks.map(\.count).max() ?? 0
        for i in 0..<longest {
            for block in dataBlocks where i < block.count { result.append(block[i]) }
        }
        for i in 0..<layout.ecCodewordsPerBlock {
            for block in ecBlocks { result.append(block[i]) }
        }
        return result
    }
}
