import Foundation
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Toasts have a place of their own: the key bar's row, one line, the
/// newest; nothing else on the screen changes while one shows.
@Suite("Toasts: one line in the key bar's row")
struct ToastPlaceTests {
    static let transportError = """
        The operation couldn’t be completed. (NSURLErrorDomain error -1004.)
          underlying: Error Domain=NSPOSIXErrorDomain Code=61 "Connection refused"
          url: http://127.0.0.1:8628/device_authorization
        """

    /// The fixture with a long warning about another session and, newest, a raw three-line transport error.
    static func withToasts(size: Size) -> AppState {
        var state = Fixture.several(size: size)
        _ = state.reduce(.statusChanged(UserStatusChanged(
            session: SessionKey("pts/7")!, previous: .account(Fixture.grace), current: .anonymous,
            reason: .revoked(Identity(provider: "microsoft", subject: "oid-7")))))
        state.notify(Self.transportError, .error)
        return state
    }

    @Test("only the key bar's row changes while toasts show", arguments: ScreenSnapshotTests.narrow)
    func onlyTheKeyBarRow(size: Size) {
        let state = Self.withToasts(size: size)
        let with = Screen.draw(state).lines
        let without = Screen.draw({ var quiet = state; quiet.toasts = []; return quiet }()).lines
        for y in 0..<(size.height - 1) { #expect(with[y] == without[y], "row \(y): \(with[y])") }
        #expect(with[size.height - 1] != without[size.height - 1])
    }

    @Test("the newest toast shows as one line, its first, cut with … and counting the others", arguments: ScreenSnapshotTests.narrow)
    func oneLine(size: Size) {
        let state = Self.withToasts(size: size)
        let row = Screen.draw(state).lines[size.height - 1]
        #expect(row.hasPrefix(" ✗ The operation couldn"))
        #expect(row.contains("…") == (size.width < 80), "cut with … only where it does not fit")
        #expect(!row.contains("underlying"))
        #expect(row.hasSuffix(" +1"))
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("toast-error", size))
    }

    @Test("a dialog that opens has the key bar's row for its keys: toasts shown before it go; one raised while it is open shows")
    func dialogKeysFirst() {
        let size = Size(width: 60, height: 16)
        var state = Self.withToasts(size: size)
        _ = Fixture.press(.character("d"), on: &state)
        guard case .disconnect = state.dialog else {
            Issue.record("no disconnect dialog: \(String(describing: state.dialog))")
            return
        }
        #expect(state.toasts.isEmpty)
        let keys = Screen.draw(state).lines[size.height - 1]
        #expect(!keys.contains("The operation") && keys.contains("y disconnect"), "\(keys)")
        state.notify("Something new", .info)
        #expect(Screen.draw(state).lines[size.height - 1].contains("Something new"))
    }

    @Test("a toast's text as one line: the first line that says anything")
    func firstLine() {
        #expect(Toasts.line(of: "\n  Connection   refused  \nat line 2") == "Connection refused")
        #expect(Toasts.line(of: "plain") == "plain")
    }
}
