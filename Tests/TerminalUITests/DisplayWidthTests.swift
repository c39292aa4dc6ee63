import Testing
import TestBasics
@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnAndControlsAreZero() {
        #expect(DisplayWidth.of(Character("a")) == 1)
        #expect(DisplayWidth.of(Character(" ")) == 1)
        #expect(DisplayWidth.of(Character("~")) == 1)
        for control in ["\0", "\t", "\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\r\n"] {
            #expect(DisplayWidth.of(control) == 0, "\(control.unicodeScalars.map(\.value))")
        }
        #expect("plain text".displayWidth == 10)
        #expect("tab\there\r\n".displayWidth == 7)
    }

    @Test func cjkAndHangulAreTwoColumns() {
        for wide in ["日", "本", "語", "한", "국", "어", "ア", "\u{3000}"] {
            #expect(DisplayWidth.of(Character(wide)) == 2, "\(wide)")
        }
        #expect("日本語".displayWidth == 6)
        #expect("한국어".displayWidth == 6)
        #expect("日本語 text".displayWidth == 11)
        // A syllable spelled as conjoining jamo is one cluster, two columns wide.
        let jamo = "\u{1100}\u{1161}\u{11A8}"
        #expect(jamo.count == 1)
        #expect(jamo.displayWidth == 2)
        #expect(DisplayWidth.scalarWidth("\u{1161}") == 0)
        #expect(DisplayWidth.scalarWidth("\u{11A8}") == 0)
        #expect(DisplayWidth.scalarWidth("\u{D7B0}") == 0)
    }

    @Test func fullwidthFormsAreTwoColumnsAndHalfwidthOne() {
        #expect("ＡＢＣ".displayWidth == 6)
        #expect("！？".displayWidth == 4)
        #expect("ｱｲｳ".displayWidth == 3)  // halfwidth katakana
        #expect("￦".displayWidth == 2)  // fullwidth won sign
    }

    @Test func combiningMarksAddNothingToTheirBase() {
        let decomposedE = "e\u{301}"
        #expect(decomposedE.count == 1)
        #expect(decomposedE.displayWidth == 1)
        let precomposed = "Zo\u{EB} \u{C5}ngstr\u{F6}m"
        let decomposed = "Zoe\u{308} A\u{30A}ngstro\u{308}m"
        #expect(precomposed == decomposed)  // canonically equivalent
        #expect(precomposed.utf8.count != decomposed.utf8.count)
        #expect(precomposed.displayWidth == 12)
        #expect(decomposed.displayWidth == 12)
        #expect("日\u{302}".displayWidth == 2)
        // A mark with no base is a cluster of its own, zero wide.
        #expect(DisplayWidth.of("\u{301}") == 0)
    }

    @Test func emojiSequencesAreTwoColumns() {
        #expect(DisplayWidth.of("👩‍💻") == 2)  // ZWJ sequence
        #expect("👩‍💻".unicodeScalars.count == 3)
        #expect(DisplayWidth.of("👨‍👩‍👧‍👦") == 2)
        #expect(DisplayWidth.of("🏳️‍🌈") == 2)
        #expect(DisplayWidth.of("🇬🇧") == 2)  // regional-indicator pair
        #expect("🇬🇧🇫🇷".displayWidth == 4)
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin-tone modifier
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)  // keycap
        #expect(DisplayWidth.of("\u{1F441}\u{200D}\u{1F5E8}") == 2)  // 👁‍🗨: joined emoji on a narrow base
        #expect(DisplayWidth.of("\u{915}\u{94D}\u{200D}\u{937}") == 1)  // a joiner in Devanagari is no emoji
    }

    @Test func variationSelectorsChoosePresentation() {
        #expect(DisplayWidth.of("\u{2764}") == 1)  // ❤ defaults to text
        #expect(DisplayWidth.of("\u{2764}\u{FE0F}") == 2)  // ❤️ emoji presentation
        #expect(DisplayWidth.of("\u{2764}\u{FE0E}") == 1)  // ❤︎ text presentation
        #expect(DisplayWidth.of("\u{231A}") == 2)  // ⌚ defaults to emoji
        #expect(DisplayWidth.of("\u{231A}\u{FE0E}") == 1)  // ⌚︎ asks for text
        #expect(DisplayWidth.of("a\u{FE0F}") == 1)  // not emoji-capable: ignored
        #expect(DisplayWidth.of("\u{6F22}\u{FE0E}") == 2)
    }

    @Test func zeroWidthCharactersStandingAlone() {
        #expect(DisplayWidth.of("\u{200D}") == 0)  // zero-width joiner
        #expect(DisplayWidth.of("\u{200B}") == 0)  // zero-width space
        #expect(DisplayWidth.of("\u{FE0F}") == 0)
        #expect(DisplayWidth.of("\u{FEFF}") == 0)
        #expect(DisplayWidth.of("a\u{200D}") == 1)  // joiner after a letter: the letter
        #expect("a\u{200B}b".displayWidth == 2)
        #expect(DisplayWidth.of("\u{AD}") == 1)  // soft hyphen: terminals show it
    }

    @Test func aZeroWidthBaseYieldsToTheScalarAfterIt() {
        let numberSign = "\u{600}1"  // ARABIC NUMBER SIGN is a visible prepend
        #expect(numberSign.count == 1)
        #expect(DisplayWidth.of(numberSign) == 1)
    }

    @Test func stringOverloadMeasuresTheFirstCluster() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("日本") == 2)
        #expect(DisplayWidth.of("a日") == 1)
        #expect(DisplayWidth.of(text: "日本語"[...].dropFirst()) == 4)
    }

    /// The ASCII shortcut of `of(text:)` must agree with measuring every
    /// `Character`, including where ASCII meets a combining mark.
    @Test func textWidthAgreesWithCharacterWidths() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let text = randomText(using: &random, maxClusters: 12)
            let expected = text.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(text.displayWidth == expected, "\(text.unicodeScalars.map(\.value))")
        }
        #expect("cafe\u{301}".displayWidth == 4)
        #expect("x🇬🇧".displayWidth == 3)
    }
}
