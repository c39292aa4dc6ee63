import ScreenKit
import Testing

@Suite("dialog text wraps at spaces, and a word wider than a line after its punctuation")
struct WrapTests {
    @Test("at spaces; every line within the width")
    func spaces() {
        #expect(DialogFrame.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        for width in 1...30 {
            for line in DialogFrame.wrap("https://login.example.com/oauth2/v2.0/devicecode?tenant=organizations a b", width: width) {
                #expect(line.displayWidth <= width, "\(width): \(line)")
            }
        }
    }

    @Test("a URL or form wider than a line breaks after its last / : = & , - _ . ? that fits past the line's middle, else at the line's end")
    func longWords() {
        #expect(DialogFrame.wrap("https://login.example.com/device/verify", width: 30) == ["https://login.example.com/", "device/verify"])
        #expect(DialogFrame.wrap("grant_type=urn:ietf:params:oauth:grant-type:device_code", width: 24)
            == ["grant_type=urn:ietf:", "params:oauth:grant-type:", "device_code"])
        // Punctuation only near the start: the line is not left mostly empty.
        #expect(DialogFrame.wrap("a/bcdefghijklmnopqrstuvwxyz", width: 10) == ["a/bcdefghi", "jklmnopqrs", "tuvwxyz"])
        // No punctuation: where the line ends.
        #expect(DialogFrame.wrap("abcdefghijklmnopqrstuvwxyz", width: 10) == ["abcdefghij", "klmnopqrst", "uvwxyz"])
    }
}
