import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// `o` where no browser can be opened says so with the URL to open
/// elsewhere, and the help lists every key of the sign-in dialog.
@Suite("o without a browser, and the sign-in dialog's keys in the help")
struct NoBrowserAndHelpTests {
    @Test("the one-line toast keeps the URL to open elsewhere", arguments: [Size(width: 80, height: 24), Size(width: 100, height: 30)])
    func noBrowser(size: Size) {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.codeReady(Fixture.code()))
        let url = "http://127.0.0.1:8628/device?user_code=WDJB-MJHT"
        #expect(Fixture.press(.character("o"), on: &state) == [.open(url)])
        state.notify(AppState.noBrowser(url: url, why: "no browser can be opened here: no display, and BROWSER names none"), .error)
        let row = Screen.draw(state).lines.last ?? ""
        #expect(row.contains("Open \(url)"), "\(row)")
    }

    @Test("the help lists r, which starts a sign-in again after a denial or an expired code")
    func helpListsRetry() {
        var state = Fixture.several(size: Size(width: 120, height: 40))
        _ = Fixture.press(.character("?"), on: &state)
        let text = Screen.draw(state).text
        #expect(text.contains("r            Start again with a new code"), "\(text)")
    }
}
