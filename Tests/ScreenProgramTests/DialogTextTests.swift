import ChooserUI
import SwitchboardCore
import TerminalUI
import Testing

@Suite("The sign-in dialog shows a provider's code and page without their control characters")
struct DialogTextTests {
    @Test("a hostile user code and verification page draw without any control or bidirectional character")
    func hostileCode() {
        var state = Fixture.state(size: Size(width: 120, height: 40))
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        let hostile = "\u{1B}]0;pwned\u{07}\u{202E}\u{2066}\u{85}\u{9B}2J"
        let code = WaitingCode(
            userCode: "WDJB\(hostile)-MJHT", verificationURI: "https://example.test/device\(hostile)", completeURI: nil,
            expiresAt: Fixture.now.advanced(by: 60), interval: 5, demoServer: "http://127.0.0.1:8628\(hostile)", qrRows: [])
        _ = state.reduce(.codeReady(code))
        let text = Screen.draw(state).text
        #expect(text.contains("https://example.test/device") && text.contains("W D J B - M J H T"))
        #expect(!text.unicodeScalars.contains { $0.isTerminalControl && $0 != "\n" }, "\(text.unicodeScalars.filter(\.isTerminalControl).map(\.value))")
    }
}
