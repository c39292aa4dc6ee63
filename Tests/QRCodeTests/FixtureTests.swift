import Testing
import TestBasics
@testable import QRCode

/// Compares the encoder with symbols from an independent encoder (qrencode).
@Suite("qrencode fixtures", .onOwnThreads)
struct FixtureTests {
    @Test("Fixtures load and cover the required range")
    func fixturesLoad() throws {
        let fixtures = try Fixture.loadAll()
        #expect(fixtures.count >= 24)
        #expect(Set(fixtures.map(\.level)) == Set(QRErrorCorrection.allCases))
        #expect(fixtures.contains { $0.version >= 7 })
        #expect(fixtures.contains { $0.version >= 20 })
        #expect(fixtures.contains { $0.version == 40 })
        #expect(fixtures.contains { $0.bytes.contains { $0 >= 0x80 } })
    }

    @Test("Forced version, level and mask reproduce qrencode exactly", arguments: Fixture.all)
    func forcedMatches(_ fixture: Fixture) throws {
        let matrix = try QREncoder.encode(
            fixture.bytes, errorCorrection: fixture.level,
            version: fixture.version, mask: fixture.mask
        )
        let diff = fixture.differences(from: matrix)
        #expect(diff.count == 0, "\(diff.count) modules differ, first at \(String(describing: diff.first))")
    }

    @Test("Automatic mask selection picks qrencode's mask", arguments: Fixture.all)
    func autoMaskMatches(_ fixture: Fixture) throws {
        let matrix = try QREncoder.encode(fixture.bytes, errorCorrection: fixture.level, version: fixture.version)
        #expect(matrix.mask == fixture.mask)
        #expect(fixture.differences(from: matrix).count == 0)
    }

    @Test("Fully automatic encoding (version and mask) reproduces qrencode", arguments: Fixture.all)
    func fullyAutomaticMatches(_ fixture: Fixture) throws {
        let matrix = try QREncoder.encode(
            fixture.bytes, errorCorrection: fixture.level, minimumVersion: fixture.minimumVersion
        )
        #expect(matrix.version == fixture.version)
        #expect(matrix.mask == fixture.mask)
        #expect(matrix.errorCorrection == fixture.level)
        #expect(fixture.differences(from: matrix).count == 0)
    }
}
