import CNcurses
import Testing
import TerminalUI

@testable import CursesBackend

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pure rules of drawing: colour numbers, what each cell hands curses,
/// and the clipboard sequence.
@Suite("Drawing rules")
struct DrawingRulesTests {
    @Test("colours the terminal has pass through; others become the nearest basic colour")
    func colorNumbers() {
        #expect(CursesTerminal.colorNumber(.default, colors: 256) == -1)
        #expect(CursesTerminal.colorNumber(.palette(200), colors: 256) == 200)
        #expect(CursesTerminal.colorNumber(.palette(9), colors: 16) == 9)
        // 196 is pure red: bright red with 16 colours, red with 8.
        #expect(CursesTerminal.colorNumber(.palette(196), colors: 16) == 9)
        #expect(CursesTerminal.colorNumber(.palette(196), colors: 8) == 1)
        #expect(CursesTerminal.colorNumber(.palette(9), colors: 8) == 1)
        // 21 is pure blue, 46 pure green.
        #expect(CursesTerminal.colorNumber(.palette(21), colors: 16) == 4)
        #expect(CursesTerminal.colorNumber(.palette(46), colors: 8) == 2)
        // Greys stay grey: 244 (128) is nearer white than black, and is
        // bright black itself with 16 colours; 232 (8) is black.
        #expect(CursesTerminal.colorNumber(.palette(244), colors: 8) == 7)
        #expect(CursesTerminal.colorNumber(.palette(244), colors: 16) == 8)
        #expect(CursesTerminal.colorNumber(.palette(232), colors: 16) == 0)
        #expect(CursesTerminal.colorNumber(.palette(255), colors: 16) == 7)
        #expect(CursesTerminal.colorNumber(.palette(231), colors: 16) == 15)
        // 88 colours have another cube: only their first 16 are used.
        #expect(CursesTerminal.colorNumber(.palette(46), colors: 88) == 10)
        #expect(CursesTerminal.colorNumber(.palette(12), colors: 88) == 12)
        // No colours at all.
        #expect(CursesTerminal.colorNumber(.palette(1), colors: 0) == -1)
    }

    @Test("each cell hands curses characters of the buffer's width")
    func glyphs() {
        setlocale(LC_CTYPE, "C.UTF-8")
        func glyph(_ symbol: String, room: Int = 10, utf8: Bool = true) -> ([UInt32], Int) {
            var characters: [wchar_t] = []
            let width = CursesTerminal.appendGlyph(of: Cell(symbol), room: room, utf8: utf8, to: &characters)
            return (characters.map { UInt32(bitPattern: $0) }, width)
        }
        #expect(glyph("a") == ([0x61], 1))
        #expect(glyph("日") == ([0x65E5], 2))
        #expect(glyph("😀") == ([0x1F600], 2))
        #expect(glyph("e\u{301}") == ([0x65, 0x301], 1))  // a combining mark stays with its letter
        #expect(glyph("日", room: 1) == ([0x20], 1))  // no room for a wide character
        #expect(glyph("\u{7}") == ([0x20], 1))  // control characters never reach the terminal
        #expect(glyph("") == ([0x20], 1))
        // Through a string, a ZWJ family keeps its first person, two columns
        // wide like the buffer; `wholeCluster` gives curses all of it.
        #expect(glyph("👨\u{200D}👩\u{200D}👧") == ([0x1F468], 2))
        let family = CursesTerminal.wholeCluster(of: Cell("👨\u{200D}👩\u{200D}👧"))
        #expect(family.map { $0.map { UInt32(bitPattern: $0) } } == [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467])
        #expect(CursesTerminal.wholeCluster(of: Cell("😀")) == nil)
        #expect(CursesTerminal.wholeCluster(of: Cell("e\u{301}")) == nil)
        // More than curses holds in a cell (a family of four: seven characters).
        #expect(CursesTerminal.wholeCluster(of: Cell("👨\u{200D}👩\u{200D}👧\u{200D}👦")) == nil)
        // ❤️ is wide in the buffer (emoji presentation) but one column to
        // wcwidth: the heart, then a space, so the row stays aligned.
        #expect(glyph("❤\u{FE0F}") == ([0x2764, 0x20], 2))
        #expect(glyph("日", utf8: false).1 == 2)
    }

    @Test("OSC 52 carries the text in base64")
    func osc52() {
        func base64(_ text: String) -> String { String(decoding: OSC52.base64(Array(text.utf8)), as: UTF8.self) }
        #expect(base64("") == "")
        #expect(base64("f") == "Zg==")
        #expect(base64("fo") == "Zm8=")
        #expect(base64("foo") == "Zm9v")
        #expect(base64("foobar") == "Zm9vYmFy")
        #expect(base64("日本") == "5pel5pys")
        #expect(OSC52.sequence(copying: "hi") == Array("\u{1B}]52;c;aGk=\u{07}".utf8))
    }
}
