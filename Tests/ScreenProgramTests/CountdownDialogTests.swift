import ChooserUI
import SwitchboardCore
import TerminalUI
import Testing

@Suite("The sign-in dialog's countdown for any expiry a provider could cause")
struct CountdownDialogTests {
    @Test("an expiry at infinity, not-a-number or far past draws a bounded countdown", arguments: [
        (Double.infinity, "Expires in 99:59:59"), (1e300, "Expires in 99:59:59"), (Double.nan, "Expires in 0:00"),
        (-Double.infinity, "Expires in 0:00"), (86_400, "Expires in 23:59:59"),
    ])
    func extremeExpiry(offset: Double, expected: String) {
        var state = Fixture.state(size: Size(width: 120, height: 40))
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        var code = Fixture.code()
        code = WaitingCode(
            userCode: code.userCode, verificationURI: code.verificationURI, completeURI: code.completeURI,
            expiresAt: Fixture.now.advanced(by: offset), interval: code.interval, demoServer: code.demoServer, qrRows: code.qrRows)
        _ = state.reduce(.codeReady(code))
        _ = state.reduce(.tick(Fixture.now.advanced(by: 1)))
        #expect(Screen.draw(state).text.contains(expected))
    }
}
