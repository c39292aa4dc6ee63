import Testing
import TestBasics
@testable import TerminalUI

@Suite struct ClusterIteratorTests {
    /// Clusters whose boundaries the shortcuts must not get wrong: marks,
    /// joiners, prepends, jamo, flags, halfwidth sound marks, spacing marks,
    /// and clusters longer than the 15-byte pieces the iterator measures.
    static let trickyPool = clusterPool + [
        "\u{600}1", "\u{1100}\u{AC00}", "\u{AC00}\u{11A8}", "か\u{3099}", "\u{FF76}\u{FF9E}", "\u{0E01}\u{0E33}",
        "\u{915}\u{94D}\u{937}", "\u{200D}\u{A9}", "\u{A9}\u{FE0F}", "🇬🇧🇫", "👨‍👩‍👧‍👦",
        "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",  // England: 28 bytes
        "Z" + String(repeating: "\u{301}\u{316}", count: 40),  // 161 bytes
        "Ω", "Ж", "—", "€", "─", "Ｑ", "\u{3000}", "\u{AD}", "\u{85}",
    ]

    /// The iterator finds the same clusters as `Character` (but for CR LF,
    /// which it splits into two zero-width controls) with the same widths.
    @Test func agreesWithCharacterBoundaries() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...10, using: &random)
            let text = (0..<count).map { _ in Self.trickyPool.randomElement(using: &random)! }.joined()
            var expected: [(end: Int, width: Int)] = []
            var offset = 0
            for character in text {
                if character == "\r\n" {
                    expected.append((offset + 1, 0))
                }
                offset += character.utf8.count
                expected.append((offset, DisplayWidth.of(character)))
            }
            let found = ClusterIterator.withClusters(of: text) { clusters in
                var found: [(end: Int, width: Int)] = []
                while let cluster = clusters.next() { found.append((cluster.end, cluster.width)) }
                return found
            }
            #expect(found.map(\.end) == expected.map(\.end), "\(text.unicodeScalars.map(\.value))")
            #expect(found.map(\.width) == expected.map(\.width), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func measuresSubstrings() {
        let text = "ab日本語cd"
        #expect(DisplayWidth.of(text: text.dropFirst(2).dropLast(1)) == 7)
        #expect(DisplayWidth.of(text: text[...]) == 10)
    }

    /// Every scalar the iterator measures without grapheme breaking is split
    /// from its neighbours by `Character` too, and has the table's width.
    @Test func simpleScalarsAreAlwaysClustersOfTheirOwn() {
        let neighbours = ["a", "é", "日", "가", "ア", "©", "—", "Ж", "\u{3000}", "Ｑ"]
        var wrong: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), let width = ClusterIterator.simpleWidth(value) else { continue }
            if width != DisplayWidth.scalarWidth(scalar) { wrong.append("U+\(String(value, radix: 16)) width") }
            let alone = String(Character(scalar))
            for neighbour in neighbours where (alone + neighbour).count != 2 || (neighbour + alone).count != 2 {
                wrong.append("U+\(String(value, radix: 16)) joins \(neighbour)")
            }
            if (alone + alone).count != 2 { wrong.append("U+\(String(value, radix: 16)) joins itself") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }
}
