import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The inspector scrolls by the list rule: ↑ and PgUp go to older
/// exchanges, and there it stays while polls arrive; ↓ and PgDn come back
/// to the newest, which it follows again.
@Suite("The inspector scrolls")
struct InspectorScrollTests {
    static func poll(_ n: Int) -> FlowTraceEntry {
        FlowTraceEntry(elapsed: Double(5 * n), reference: "RFC 8628 §3.4", step: "poll \(n)", status: 400, result: "authorization_pending",
                       sent: ["grant_type=device_code"], received: ["error=authorization_pending"])
    }

    static func inspecting(_ size: Size, polls: Int) -> AppState {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, .character("i"), on: &state)
        _ = state.reduce(.codeReady(Fixture.code()))
        _ = state.reduce(.signInTraced((1...polls).map(poll)))
        return state
    }

    static func inspectorText(_ state: AppState) -> [String] {
        guard let area = state.inspectorArea else { return [] }
        return Array(Screen.draw(state).lines[area.y..<area.maxY])
    }

    @Test("↑ shows older exchanges and stays put while new ones arrive; ↓ to the end follows them again",
          arguments: [Size(width: 80, height: 24), Size(width: 100, height: 30)])
    func scrollsAndStays(size: Size) {
        var state = Self.inspecting(size, polls: 8)
        let newest = Self.inspectorText(state)
        #expect(newest.joined().contains("poll 8"))
        _ = Fixture.press(.up, .up, .up, on: &state)
        let older = Self.inspectorText(state)
        #expect(older != newest)
        #expect(older.joined().contains("↓ 3 newer"), "\(older.joined(separator: "\n"))")
        _ = state.reduce(.signInTraced((1...10).map(Self.poll)))
        let after = Self.inspectorText(state)
        #expect(after.dropLast() == older.dropLast(), "the rows shown stay put")
        #expect(after.joined().contains("↓ 9 newer"))
        _ = Fixture.press(.pageDown, .pageDown, .pageDown, .pageDown, on: &state)
        #expect(Self.inspectorText(state).joined().contains("poll 10"))
        _ = state.reduce(.signInTraced((1...11).map(Self.poll)))
        #expect(Self.inspectorText(state).joined().contains("poll 11"), "back at the newest, it follows them")
    }

    @Test("PgUp goes a page up, to the first exchange at most", arguments: ScreenSnapshotTests.narrow)
    func pageUp(size: Size) {
        var state = Self.inspecting(size, polls: 6)
        for _ in 0..<10 { _ = Fixture.press(.pageUp, on: &state) }
        let text = Self.inspectorText(state).joined(separator: "\n")
        #expect(text.contains("poll 1 "), "\(text)")
        #expect(!text.contains("↑"), "nothing older above")
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("inspector-scrolled", size))
    }
}
