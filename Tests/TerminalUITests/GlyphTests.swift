import Testing
@testable import TerminalUI

@Suite struct GlyphTests {
    @Test func roundTripsClustersOfEveryLength() {
        let symbols = [
            "", " ", "a", "~", "é", "e\u{301}", "日", "👍🏽", "👩‍💻", "🇬🇧", "❤️",
            "123456789012345",  // 15 bytes: the most kept inline
            "1234567890123456",  // 16 bytes: pooled
            "👨‍👩‍👧‍👦", "Z" + String(repeating: "\u{301}", count: 30),
        ]
        for symbol in symbols {
            let glyph = Glyph(symbol)
            #expect(glyph.string.utf8.elementsEqual(symbol.utf8), "\(symbol.unicodeScalars.map(\.value))")
            #expect(glyph.width == DisplayWidth.of(symbol))
            #expect(Cell(symbol).symbol.utf8.elementsEqual(symbol.utf8))
        }
        #expect(Glyph("").isEmpty)
        #expect(!Glyph("\0").isEmpty)
        #expect(Glyph(" ") == .space)
    }

    @Test func equalClustersMakeEqualGlyphs() {
        #expect(Glyph("日") == Glyph("日"))
        #expect(Glyph("👨‍👩‍👧‍👦") == Glyph("👨‍👩‍👧‍👦"))  // pooled once
        #expect(Glyph("👨‍👩‍👧‍👦") != Glyph("👨‍👩‍👧"))
        let composed = "\u{C5}" + String(repeating: "\u{301}", count: 8)
        let decomposed = "A\u{30A}" + String(repeating: "\u{301}", count: 8)
        #expect(composed == decomposed)  // canonically equivalent Strings…
        #expect(Glyph(composed) != Glyph(decomposed))  // …but different bytes
        #expect(Glyph("a") != Glyph("b"))
    }

    @Test func settingASymbolRemeasuresIt() {
        var cell = Cell("a", style: Style(foreground: .red))
        #expect(cell.width == 1)
        cell.symbol = "日"
        #expect(cell.width == 2)
        #expect(cell.symbol == "日")
        #expect(cell.style == Style(foreground: .red))
        cell.symbol = ""
        #expect(cell.isContinuation)
        #expect(cell.description == "Cell(\"\", style: \(Style(foreground: .red)))")
        #expect(Cell("x").description == "Cell(\"x\")")
    }

    /// `changes(from:)` compares cells as memory first; that is only a
    /// shortcut if the layout has no padding.
    @Test func cellsAreTwentyFourDefinedBytes() {
        #expect(MemoryLayout<Cell>.size == 24)
        #expect(MemoryLayout<Cell>.stride == 24)
        #expect(_isPOD(Cell.self))
    }
}
