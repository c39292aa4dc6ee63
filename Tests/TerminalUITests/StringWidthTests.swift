import Testing
import TestBasics
@testable import TerminalUI

@Suite struct StringWidthTests {
    @Test func truncatesASCIIWithAnEllipsis() {
        #expect("hello".truncated(toWidth: 10) == "hello")
        #expect("hello".truncated(toWidth: 5) == "hello")
        #expect("hello".truncated(toWidth: 4) == "hel…")
        #expect("hello".truncated(toWidth: 1) == "…")
        #expect("hello".truncated(toWidth: 0) == "")
        #expect("hello".truncated(toWidth: -3) == "")
        #expect("".truncated(toWidth: 3) == "")
    }

    @Test func neverSplitsAWideCharacter() {
        #expect("日本語".truncated(toWidth: 6) == "日本語")
        #expect("日本語".truncated(toWidth: 5) == "日本…")
        #expect("日本語".truncated(toWidth: 4) == "日…")  // half of 本 cannot be shown
        #expect("日本語".truncated(toWidth: 3) == "日…")
        #expect("日本語".truncated(toWidth: 2) == "…")
        #expect("a日本".truncated(toWidth: 4) == "a日…")
        #expect("👩‍💻 dev".truncated(toWidth: 3) == "👩‍💻…")
        #expect("🇬🇧🇫🇷🇩🇪".truncated(toWidth: 5) == "🇬🇧🇫🇷…")
        for width in 0...8 {
            #expect("日本語ab".truncated(toWidth: width).displayWidth <= width)
        }
    }

    @Test func keepsCombiningMarksWithTheirBase() {
        let decomposed = "A\u{30A}ngstro\u{308}m"
        #expect(decomposed.truncated(toWidth: 8) == decomposed)
        let cut = decomposed.truncated(toWidth: 3)
        #expect(Array(cut.unicodeScalars) == Array("A\u{30A}n…".unicodeScalars))
        #expect("Zo\u{EB}".truncated(toWidth: 3) == "Zo\u{EB}")
    }

    @Test func honoursAnotherEllipsis() {
        #expect("abcdef".truncated(toWidth: 5, ellipsis: "...") == "ab...")
        #expect("abcdef".truncated(toWidth: 5, ellipsis: "") == "abcde")
        #expect("日本語".truncated(toWidth: 4, ellipsis: "〜") == "日〜")
        // An ellipsis wider than the room cuts without one.
        #expect("abcdef".truncated(toWidth: 2, ellipsis: "...") == "ab")
    }

    @Test func padsToAnExactWidth() {
        #expect("ab".padded(toWidth: 4) == "ab  ")
        #expect("日本".padded(toWidth: 5) == "日本 ")
        #expect("日本語".padded(toWidth: 5) == "日本…")
        #expect("日本語".padded(toWidth: 4) == "日… ")
        #expect("e\u{301}".padded(toWidth: 3) == "e\u{301}  ")
        #expect("abc".padded(toWidth: 0) == "")
        var random = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let text = randomText(using: &random, maxClusters: 8)
            let width = Int.random(in: 0...10, using: &random)
            #expect(text.padded(toWidth: width).displayWidth == width, "\(text.unicodeScalars.map(\.value)) to \(width)")
        }
    }

    @Test func truncatedFromStartKeepsTheEndByColumns() {
        #expect("hello".truncatedFromStart(toWidth: 10) == "hello")
        #expect("hello".truncatedFromStart(toWidth: 4) == "…llo")
        #expect("日本語".truncatedFromStart(toWidth: 4) == "…語")  // half of 本 cannot be shown
        #expect("日本語".truncatedFromStart(toWidth: 5) == "…本語")
        #expect("ab👨\u{200D}👩\u{200D}👧".truncatedFromStart(toWidth: 3) == "…👨\u{200D}👩\u{200D}👧")
        #expect("hello".truncatedFromStart(toWidth: 0) == "")
        #expect("日本語".truncatedFromStart(toWidth: 1) == "…")
    }
}
