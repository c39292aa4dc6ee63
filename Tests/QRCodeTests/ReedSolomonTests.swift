import Testing
import TestBasics
@testable import QRCode

@Suite("Reed–Solomon", .onOwnThreads)
struct ReedSolomonTests {
    @Test("ISO/IEC 18004 Annex I example: \"01234567\", version 1-M")
    func isoExample() {
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11,
            0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let ec = ReedSolomon.remainder(data, degree: 10)
        #expect(ec == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test("Generator polynomial of degree 7 (exponents of α)")
    func generatorDegree7() {
        let exponents = ReedSolomon.generator(degree: 7).map { GF256.log[Int($0)] }
        #expect(exponents == [87, 229, 146, 149, 238, 102, 21])
    }

    @Test("GF(256) field properties")
    func fieldProperties() {
        #expect(GF256.exp[255] == 1)
        #expect(GF256.exp[8] == 0x1D) // α^8 = x^4 + x^3 + x^2 + 1
        #expect(Set(GF256.exp[0..<255]).count == 255)
        for a in 1...255 {
            let inverse = GF256.exp[255 - GF256.log[a]]
            #expect(GF256.multiply(UInt8(a), inverse) == 1)
        }
    }

    @Test("Codeword with appended EC is divisible by the generator")
    func syndromeIsZero() {
        let data = Array("http://127.0.0.1:8628/device".utf8)
        let codeword = data + ReedSolomon.remainder(data, degree: 18)
        // Evaluating at every generator root must give zero.
        for i in 0..<18 {
            var value: UInt8 = 0
            for byte in codeword { value = GF256.multiply(value, GF256.exp[i]) ^ byte }
            #expect(value == 0)
        }
    }
}
