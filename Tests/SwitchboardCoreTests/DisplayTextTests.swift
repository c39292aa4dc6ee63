import Testing
import SwitchboardCore

@Suite("Text from outside on the terminal and in JSON")
struct DisplayTextTests {
    /// Every scalar `isTerminalControl` must cover.
    static let controls: [UInt32] = Array(0x00...0x1F) + Array(0x7F...0x9F)
        + [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)

    @Test("C0, DEL, C1 and every bidirectional control are terminal controls; ordinary text is not")
    func classification() {
        for value in Self.controls { #expect(Unicode.Scalar(value)!.isTerminalControl, "U+\(String(value, radix: 16))") }
        for text in ["a", "é", " ", "Zoë", "אב", "ع", "\u{200D}", "\u{A0}", "\u{2028}"] {
            #expect(!text.containsTerminalControl, "\(text)")
        }
    }

    @Test("displaySafe drops each of them, one at a time, between letters")
    func dropsEach() {
        for value in Self.controls where value != 0x1B && value != 0x9B && ![0x90, 0x98, 0x9D, 0x9E, 0x9F].contains(value) {
            let text = "a" + String(Unicode.Scalar(value)!) + "b"
            #expect(text.displaySafe == "ab", "U+\(String(value, radix: 16))")
        }
        #expect("\u{202E}evil\u{2066}\u{200F}\u{061C}".displaySafe == "evil")
    }

    @Test("JSON text keeps its value but writes each control as a \\u escape")
    func jsonEscapes() {
        let json = "{\"name\":\"A\u{202E}B\u{85}C\u{7F}D\u{200E}\"}"
        let escaped = json.jsonEscapingTerminalControls
        #expect(escaped == #"{"name":"A\u202eB\u0085C\u007fD\u200e"}"#)
        #expect(!escaped.containsTerminalControl)
        #expect("plain".jsonEscapingTerminalControls == "plain")
    }
}
