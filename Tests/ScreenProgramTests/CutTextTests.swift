import Foundation
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Every cut of text shows "…", and nothing is drawn over anything else.
@Suite("Text that does not fit: cut with …, never overlapping")
struct CutTextTests {
    @Test("the accounts pane's own lines are cut with …", arguments: ScreenSnapshotTests.narrow)
    func accountsPane(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.end, on: &state)
        let screen = Screen.draw(state)
        #expect(screen.text.contains("nobody: the plain gui…"), "\(screen.text)")
        Snapshot.check(screen, ScreenSnapshotTests.name("cut-text", size))
    }

    @Test("a starred show's title ends a column before its star", arguments: ScreenSnapshotTests.narrow)
    func starClearsTitle(size: Size) {
        let layout = ScreenLayout(size)!
        let screen = Screen.draw(Fixture.several(size: size))
        let starred = screen.lines.enumerated().filter { $0.element.contains("★") }
        #expect(!starred.isEmpty)
        for (y, _) in starred {
            let star = layout.guideList.maxX - 2
            #expect(screen[star, y].symbol == "★")
            #expect(screen[star - 1, y].symbol == " ", "row \(y): \(screen.lines[y])")
        }
        // Codebreakers is 12 columns: at 60 it is cut, at 80 it shows whole.
        #expect(screen.text.contains(size.width == 60 ? "Code…" : "Codebreakers"))
    }

    @Test("the inspector cuts a long line with … at its border", arguments: ScreenSnapshotTests.narrow)
    func inspector(size: Size) {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, .character("i"), on: &state)
        _ = state.reduce(.codeReady(Fixture.code()))
        let long = FlowTraceEntry(
            elapsed: 1.5, reference: "RFC 8628 §3.4", step: "token",
            status: 400, result: "invalid_request: the device_code parameter was rejected by an upstream gateway in front of the provider")
        _ = state.reduce(.signInTraced([long]))
        guard let area = state.inspectorArea else { Issue.record("no inspector"); return }
        let screen = Screen.draw(state)
        let headline = screen.lines.first { $0.contains("HTTP 400") } ?? ""
        #expect(headline.contains("…"), "\(headline)")
        // Nothing written on the inspector's right border.
        for y in area.y + 1..<area.maxY - 1 { #expect(screen[area.maxX - 1, y].symbol == "│") }
    }
}
