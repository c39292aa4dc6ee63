import Testing
@testable import TerminalUI

@Suite struct BufferTests {
    @Test func writesClipAtTheEdge() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("abcdefg", x: 1, y: 0) == 4)
        #expect(buffer.lines == [" abcd"])
    }

    @Test func wideCharactersTakeTwoCells() {
        var buffer = Buffer(width: 6, height: 1)
        let bold = Style(attributes: .bold)
        #expect(buffer.write("日本語", x: 0, y: 0, style: bold) == 6)
        #expect(buffer.cells.map(\.symbol) == ["日", "", "本", "", "語", ""])
        #expect(buffer.cells.allSatisfy { $0.style == bold })
        #expect(buffer.lines == ["日本語"])
    }

    @Test func aWideCharacterThatDoesNotFitIsLeftOut() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("日本語", x: 0, y: 0) == 4)
        #expect(buffer.cells.map(\.symbol) == ["日", "", "本", "", " "])
        var limited = Buffer(width: 8, height: 1)
        #expect(limited.write("日本語", x: 1, y: 0, limit: 3) == 2)
        #expect(limited.lines == [" 日"])
        #expect(limited.write("abc", x: 0, y: 0, limit: 0) == 0)
        #expect(limited.write("abc", x: 0, y: 0, limit: -2) == 0)
        #expect(limited.write("abc", x: 5, y: 0, limit: .max) == 3)
        #expect(limited.write("abc", x: .min, y: 0, limit: 10) == 3)
        #expect(limited.write("abc", x: .min, y: 0) == 3)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.write("日本語", x: 0, y: 0)
        buffer.write("x", x: 1, y: 0)  // right half of 日
        buffer.write("y", x: 2, y: 0)  // left half of 本
        #expect(buffer.cells.map(\.symbol) == [" ", "x", "y", " ", "語", ""])
        buffer.write("漢", x: 3, y: 0)  // straddles the blank and 語
        #expect(buffer.cells.map(\.symbol) == [" ", "x", "y", "漢", "", " "])
        #expect(buffer.wideCharacterProblems.isEmpty)
    }

    @Test func wideOverWideAtAnOffsetLeavesNoHalves() {
        var buffer = Buffer(width: 5, height: 1)
        buffer.write("日本", x: 0, y: 0)
        buffer.write("語", x: 1, y: 0)
        #expect(buffer.cells.map(\.symbol) == [" ", "語", "", " ", " "])
        #expect(buffer.wideCharacterProblems.isEmpty)
    }

    @Test func negativeColumnsAreClipped() {
        var buffer = Buffer(width: 4, height: 1)
        #expect(buffer.write("abcdef", x: -2, y: 0) == 6)  // columns advanced from -2
        #expect(buffer.lines == ["cdef"])
        var wide = Buffer(width: 4, height: 1)
        let style = Style(foreground: .green)
        #expect(wide.write("日本", x: -1, y: 0, style: style) == 4)
        // 日 straddles the left edge: its visible half is a space.
        #expect(wide.cells.map(\.symbol) == [" ", "本", "", " "])
        #expect(wide[0, 0].style == style)
        #expect(wide.write("abc", x: -5, y: 0) == 3)
        #expect(wide.lines == [" 本"])
    }

    @Test func rowsOutsideTheBufferWriteNothing() {
        var buffer = Buffer(width: 3, height: 2)
        #expect(buffer.write("abc", x: 0, y: -1) == 0)
        #expect(buffer.write("abc", x: 0, y: 2) == 0)
        #expect(buffer.write("abc", x: 3, y: 0) == 0)
        #expect(buffer == Buffer(width: 3, height: 2))
    }

    @Test func zeroWidthAndControlClustersAreSkipped() {
        var buffer = Buffer(width: 8, height: 1)
        #expect(buffer.write("a\u{200B}b\tc\r\nd\u{7}\u{200D}", x: 0, y: 0) == 4)
        #expect(buffer.lines == ["abcd"])
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(width: 8, height: 1)
        #expect(buffer.write("Zoe\u{308} x", x: 0, y: 0) == 5)
        #expect(Array(buffer[2, 0].symbol.unicodeScalars) == ["e", "\u{308}"])
        #expect(buffer[3, 0].symbol == " ")
        #expect(buffer.write("e\u{301}", x: 5, y: 0) == 1)
        #expect(buffer[5, 0].symbol.utf8.count == 3)
    }

    @Test func emojiClustersFillOneWideCell() {
        var buffer = Buffer(width: 10, height: 1)
        #expect(buffer.write("👩‍💻🇬🇧👍🏽❤️", x: 0, y: 0) == 8)
        #expect(buffer.cells.map(\.symbol) == ["👩‍💻", "", "🇬🇧", "", "👍🏽", "", "❤️", "", " ", " "])
        #expect(buffer.write("❤︎!", x: 8, y: 0) == 2)
        #expect(buffer.lines == ["👩‍💻🇬🇧👍🏽❤️❤︎!"])
    }

    @Test func subscriptKeepsWideCharactersWhole() {
        var buffer = Buffer(width: 4, height: 1)
        buffer[0, 0] = Cell("日")
        #expect(buffer.cells.map(\.symbol) == ["日", "", " ", " "])
        buffer[1, 0] = Cell("x")
        #expect(buffer.cells.map(\.symbol) == [" ", "x", " ", " "])
        buffer[3, 0] = Cell("本")  // no room at the right edge
        #expect(buffer[3, 0].symbol == " ")
        buffer[2, 0] = Cell("\u{301}")  // zero width
        #expect(buffer[2, 0].symbol == " ")
        buffer[2, 0] = Cell("")  // a continuation with no wide character
        #expect(buffer[2, 0].symbol == " ")
        buffer[2, 0] = Cell("本")
        buffer[3, 0].style = Style(foreground: .red)  // restyles the whole 本
        #expect(buffer[2, 0].style == Style(foreground: .red))
        #expect(buffer.wideCharacterProblems.isEmpty)
    }

    @Test func fillAndRestyleKeepWideCharactersWhole() {
        var buffer = Buffer(width: 6, height: 2)
        buffer.write("日本語", x: 0, y: 0)
        buffer.fill(Rect(x: 1, y: 0, width: 2, height: 1), with: Cell("-"))
        #expect(buffer.cells[0..<6].map(\.symbol) == [" ", "-", "-", " ", "語", ""])
        buffer.fill(Rect(x: 0, y: 1, width: 5, height: 1), with: Cell("漢"))
        #expect(buffer.lines[1] == "漢漢")
        #expect(buffer.cells[6..<12].map(\.symbol) == ["漢", "", "漢", "", " ", " "])
        buffer.fill(Rect(x: 0, y: 1, width: 6, height: 1), with: Cell(""))
        #expect(buffer.lines[1] == "")
        let red = Style(foreground: .red)
        buffer.restyle(Rect(x: 5, y: 0, width: 1, height: 1), style: red)  // right half of 語
        #expect(buffer[4, 0].style == red)
        #expect(buffer.wideCharacterProblems.isEmpty)
    }

    @Test func linesDropTrailingSpacesOnly() {
        var buffer = Buffer(width: 8, height: 3)
        buffer.write(" a 日 ", x: 0, y: 0)
        buffer.write("x", x: 7, y: 2)
        #expect(buffer.lines == [" a 日", "", "       x"])
        #expect(buffer.text == " a 日\n\n       x")
    }

    @Test func cellsCompareBytesNotCanonicalEquivalence() {
        #expect(Cell("\u{E9}") != Cell("e\u{301}"))
        #expect(Cell("\u{E9}") == Cell("\u{E9}"))
        #expect(Cell("a", style: .plain) != Cell("a", style: Style(attributes: .bold)))
        #expect(Set([Cell("\u{E9}"), Cell("e\u{301}")]).count == 2)
    }
}
