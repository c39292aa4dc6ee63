import Testing
@testable import TerminalUI

@Suite struct WidthTableTests {
    /// Every code point of the generated fixture gets wcwidth's width
    /// (controls, -1 there, are 0 here).
    @Test func agreesWithPythonWcwidth() throws {
        #expect(wcwidthFixture.count > 300)
        for (value, width) in wcwidthFixture {
            let scalar = try #require(Unicode.Scalar(value))
            let expected = max(0, width)
            let name = "U+" + String(value, radix: 16, uppercase: true)
            #expect(DisplayWidth.scalarWidth(scalar) == expected, "\(name)")
            #expect(DisplayWidth.of(Character(scalar)) == expected, "\(name)")
        }
    }

    @Test func rangesAreSortedDisjointAndNeverOneColumn() {
        var previousEnd: Int64 = -1
        for entry in DisplayWidth.widthRanges {
            let start = Int64(entry >> 40), end = Int64((entry >> 16) & 0xFF_FFFF), width = entry & 0xFFFF
            #expect(start > previousEnd)
            #expect(end >= start)
            #expect(end <= 0x10FFFF)
            #expect(width == 0 || width == 2)
            previousEnd = end
        }
    }

    /// Cross-checks the table against the Swift runtime's own Unicode data.
    @Test func agreesWithSwiftUnicodeProperties() {
        let visibleFormat: Set<UInt32> = [0xAD, 0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD]
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let width = DisplayWidth.scalarWidth(scalar)
            let properties = scalar.properties
            let expected: Int?
            switch properties.generalCategory {
            case .control, .nonspacingMark, .enclosingMark, .spacingMark, .lineSeparator, .paragraphSeparator:
                expected = 0
            case .format:
                expected = visibleFormat.contains(value) ? 1 : 0
            default:
                expected = properties.isEmojiPresentation ? 2 : nil
            }
            if let expected, expected != width {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true)): \(width), expected \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    @Test func fastPathsAgreeWithTheTable() {
        for value in UInt32(0)..<0x300 {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayWidth.scalarWidth(scalar) == DisplayWidth.tableWidth(value))
        }
    }
}
