import StationConfig
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Beside a dialog, each pane's row is either drawn in full (the dialog
/// does not reach it) or cleared: never a fragment the frame cut.
@Suite("Dialogs: nothing half-cut beside them")
struct DialogBackdropTests {
    /// Cells of the panes' insides, on the rows the dialog's frame spans and
    /// outside its columns, that are not blank; the dialog found as the
    /// frame whose top-left corner is the first `┌` not a pane's own corner.
    static func fragments(_ buffer: Buffer, layout: ScreenLayout) -> [String] {
        let panes = [layout.accounts.inset(), layout.guide.inset()]
        let inside = { (x: Int, y: Int) in panes.contains { $0.contains(x: x, y: y) } }
        guard let (left, top) = (0..<buffer.height).lazy.compactMap({ y in
            (0..<buffer.width).first { x in buffer[x, y].symbol == "┌" && x != layout.accounts.x && x != layout.guide.x }.map { ($0, y) }
        }).first else { return ["no dialog found"] }
        guard let right = (left + 1..<buffer.width).first(where: { buffer[$0, top].symbol == "┐" }),
              let bottom = (top + 1..<buffer.height).first(where: { buffer[left, $0].symbol == "└" }) else { return ["no frame"] }
        var found: [String] = []
        for y in top...bottom {
            for x in 0..<buffer.width where (x < left || x > right) && inside(x, y) {
                let symbol = buffer[x, y].symbol
                if symbol != " " && symbol != "" { found.append("\(symbol) at \(x),\(y)") }
            }
        }
        return found
    }

    static func station(size: Size) -> Station {
        Station(Fixture.state(size: size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada),
                settings: StationSettings(idleTimeout: 120, countdown: 15, greeting: "Welcome to the lab"))
    }

    @Test("the PIN dialog", arguments: ScreenSnapshotTests.narrow)
    func pin(size: Size) {
        var state = Fixture.several(size: size, protected: [Fixture.grace.id])
        _ = Fixture.press(.down, .enter, on: &state)
        let buffer = Screen.draw(state)
        #expect(Self.fragments(buffer, layout: ScreenLayout(size)!) == [])
        Snapshot.check(buffer, ScreenSnapshotTests.name("backdrop-pin", size))
    }

    @Test("help and disconnect", arguments: ScreenSnapshotTests.narrow)
    func helpAndDisconnect(size: Size) {
        for keys in [[Key.character("?")], [.character("d")]] {
            var state = Fixture.several(size: size)
            for key in keys { _ = Fixture.press(key, on: &state) }
            #expect(Self.fragments(Screen.draw(state), layout: ScreenLayout(size)!) == [], "\(keys)")
        }
    }

    @Test("a station's operator PIN and its idle countdown", arguments: ScreenSnapshotTests.narrow)
    func station(size: Size) {
        var state = Self.station(size: size)
        _ = state.reduce(.input(.key(.function(12))))
        let buffer = StationScreen.draw(state)
        #expect(Self.fragments(buffer, layout: ScreenLayout(size)!) == [])
        Snapshot.check(buffer, ScreenSnapshotTests.name("backdrop-operator", size))

        var idle = Self.station(size: size)
        _ = idle.reduce(.tick(idle.now.advanced(by: 121)))
        #expect(idle.secondsLeft != nil)
        let still = StationScreen.draw(idle)
        #expect(Self.fragments(still, layout: ScreenLayout(size)!) == [])
        Snapshot.check(still, ScreenSnapshotTests.name("backdrop-still-there", size))
    }
}
