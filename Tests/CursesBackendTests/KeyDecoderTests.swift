import CNcurses
import Testing
@testable import CursesBackend
import TerminalUI

/// What `wget_wch` returns, turned into input events.
@Suite("Key decoding")
struct KeyDecoderTests {
    func key(_ code: Int32, function: Bool = false) -> InputEvent? {
        KeyDecoder.event(result: function ? KEY_CODE_YES : OK, code: code, mouse: { nil })
    }

    @Test("characters, including non-ASCII, arrive as themselves")
    func characters() {
        #expect(key(Int32(UInt8(ascii: "q"))) == .key(.character("q")))
        #expect(key(0xE5) == .key(.character("å")))
        #expect(key(0x1F600) == .key(.character("😀")))
    }

    @Test("Enter, Tab, Escape, Backspace and control keys")
    func controls() {
        #expect(key(10) == .key(.enter) && key(13) == .key(.enter))
        #expect(key(9) == .key(.tab))
        #expect(key(27) == .key(.escape))
        #expect(key(127) == .key(.backspace) && key(8) == .key(.backspace))
        #expect(key(3) == .key(.control("c")))
        #expect(key(21) == .key(.control("u")))
        #expect(key(0) == nil && key(29) == nil && key(31) == nil)
        #expect(key(28) == .key(.control("\\")), "Ctrl-\\ in raw mode")
    }

    @Test("function keys by their curses codes")
    func functionKeys() {
        let table: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_HOME, .home), (KEY_END, .end),
            (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete),
            (KEY_ENTER, .enter), (KEY_BTAB, .backTab), (sb_key_f(1), .function(1)), (sb_key_f(12), .function(12)),
        ]
        for (code, expected) in table { #expect(key(code, function: true) == .key(expected), "\(code)") }
        #expect(key(KEY_RESIZE, function: true) == nil)  // resizes come from SIGWINCH, with the size
    }

    @Test("a mouse key reads the mouse event")
    func mouse() {
        let click = MouseEvent(x: 3, y: 4, kind: .press)
        #expect(KeyDecoder.event(result: KEY_CODE_YES, code: KEY_MOUSE, mouse: { click }) == .mouse(click))
        #expect(KeyDecoder.event(result: KEY_CODE_YES, code: KEY_MOUSE, mouse: { nil }) == nil)
    }
}
