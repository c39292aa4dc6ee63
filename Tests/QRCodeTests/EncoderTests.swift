import Testing
import TestBasics
@testable import QRCode

@Suite("Encoder", .onOwnThreads)
struct EncoderTests {
    @Test("Byte capacities match ISO/IEC 18004 Table 7")
    func knownCapacities() throws {
        let expected: [(Int, QRErrorCorrection, Int)] = [
            (1, .low, 17), (1, .medium, 14), (1, .quartile, 11), (1, .high, 7),
            (9, .medium, 180), (10, .medium, 213), (20, .low, 858),
            (40, .low, 2953), (40, .medium, 2331), (40, .quartile, 1663), (40, .high, 1273),
        ]
        for (version, level, capacity) in expected {
            #expect(try QREncoder.byteCapacity(version: version, errorCorrection: level) == capacity)
        }
    }

    @Test("Automatic version is the smallest that fits", arguments: QRErrorCorrection.allCases)
    func smallestFittingVersion(_ level: QRErrorCorrection) throws {
        for version in 1...40 {
            let capacity = try QREncoder.byteCapacity(version: version, errorCorrection: level)
            let full = try QREncoder.encode([UInt8](repeating: 0x41, count: capacity), errorCorrection: level, mask: 0)
            #expect(full.version == version)
            #expect(full.size == 4 * version + 17)
            if version < 40 {
                let over = try QREncoder.encode(
                    [UInt8](repeating: 0x41, count: capacity + 1), errorCorrection: level, mask: 0
                )
                #expect(over.version == version + 1)
            }
        }
    }

    @Test("Too much data throws dataTooLong")
    func dataTooLong() {
        #expect(throws: QRError.dataTooLong(bytes: 2954, capacity: 2953)) {
            try QREncoder.encode([UInt8](repeating: 0, count: 2954), errorCorrection: .low)
        }
        #expect(throws: QRError.dataTooLong(bytes: 1274, capacity: 1273)) {
            try QREncoder.encode([UInt8](repeating: 0, count: 1274), errorCorrection: .high, minimumVersion: 30)
        }
        #expect(throws: QRError.dataTooLong(bytes: 15, capacity: 14)) {
            try QREncoder.encode([UInt8](repeating: 0, count: 15), errorCorrection: .medium, version: 1)
        }
    }

    @Test("Invalid versions and masks are rejected")
    func invalidArguments() {
        #expect(throws: QRError.invalidVersion(0)) { try QREncoder.encode("x", version: 0) }
        #expect(throws: QRError.invalidVersion(41)) { try QREncoder.encode("x", version: 41) }
        #expect(throws: QRError.invalidVersion(0)) { try QREncoder.encode("x", minimumVersion: 0) }
        #expect(throws: QRError.invalidVersion(41)) { try QREncoder.byteCapacity(version: 41, errorCorrection: .low) }
        #expect(throws: QRError.invalidMask(8)) { try QREncoder.encode("x", mask: 8) }
        #expect(throws: QRError.invalidMask(-1)) { try QREncoder.encode("x", mask: -1) }
    }

    @Test("Exact and minimum versions are honoured")
    func versionOptions() throws {
        #expect(try QREncoder.encode("BCDF-GHJK", version: 12).version == 12)
        #expect(try QREncoder.encode("BCDF-GHJK", minimumVersion: 3).version == 3)
        #expect(try QREncoder.encode("BCDF-GHJK").version == 1)
        for mask in 0..<8 {
            #expect(try QREncoder.encode("BCDF-GHJK", mask: mask).mask == mask)
        }
    }

    @Test("Empty input encodes into version 1 with padding only")
    func emptyInput() throws {
        let matrix = try QREncoder.encode([UInt8](), errorCorrection: .low)
        #expect(matrix.version == 1)
        let data = Codewords.dataCodewords([], version: 1, level: .low)
        #expect(Array(data.prefix(4)) == [0x40, 0x00, 0xEC, 0x11])
        #expect(data.count == 19)
    }

    @Test("Byte-mode header, count indicator width and padding")
    func dataCodewords() {
        // 0100 | 00000010 | 'h' 'i' | 0000 then pad bytes.
        let v1 = Codewords.dataCodewords(Array("hi".utf8), version: 1, level: .high)
        #expect(v1 == [0x40, 0x26, 0x86, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC])
        // Version 10+: 16-bit count: 0100 | 0000000000000010 | 'h' 'i' | 0000.
        let v10 = Codewords.dataCodewords(Array("hi".utf8), version: 10, level: .high)
        #expect(Array(v10.prefix(6)) == [0x40, 0x00, 0x26, 0x86, 0x90, 0xEC])
        #expect(v10.count == ECCTable.layout(version: 10, level: .high).dataCodewords)
    }

    @Test("Text is encoded as its UTF-8 bytes")
    func stringOverload() throws {
        let text = "Zoë Ångström ✓"
        let fromText = try QREncoder.encode(text, errorCorrection: .quartile)
        let fromBytes = try QREncoder.encode(Array(text.utf8), errorCorrection: .quartile)
        #expect(fromText == fromBytes)
    }

    @Test("Function patterns are in place")
    func functionPatterns() throws {
        let matrix = try QREncoder.encode("BCDF-GHJK", version: 7)
        let last = matrix.size - 1
        for (x0, y0) in [(0, 0), (last - 6, 0), (0, last - 6)] {
            #expect(matrix[x0 + 3, y0 + 3])               // finder centre
            #expect(!matrix[x0 + 1, y0 + 1])              // finder light ring
            #expect(matrix[x0 + 6, y0 + 6] && matrix[x0, y0])
        }
        for i in 8...(last - 8) {
            #expect(matrix[i, 6] == (i % 2 == 0))
            #expect(matrix[6, i] == (i % 2 == 0))
        }
        #expect(matrix[8, matrix.size - 8]) // dark module
        #expect(matrix[-1, 0] == false && matrix[0, matrix.size] == false)
    }
}
