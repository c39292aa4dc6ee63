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

    /// The pane border rows (top, with the title, and bottom) that a dialog
    /// cut: outside the dialog's columns such a row must be as it is with no
    /// dialog (not reached) or blank all along (cleared), never a piece of a
    /// title or a corner. The dialog found as `fragments` finds it; the
    /// inspector's rows, drawn full width, are left out.
    static func cutBorders(_ buffer: Buffer, plain: Buffer, layout: ScreenLayout, inspector: Rect? = nil) -> [String] {
        guard let (left, top) = (0..<buffer.height).lazy.compactMap({ y in
            (0..<buffer.width).first { x in buffer[x, y].symbol == "┌" && x != layout.accounts.x && x != layout.guide.x }.map { ($0, y) }
        }).first, let right = (left + 1..<buffer.width).first(where: { buffer[$0, top].symbol == "┐" }),
            let bottom = (top + 1..<buffer.height).first(where: { buffer[left, $0].symbol == "└" })
        else { return ["no dialog found"] }
        var found: [String] = []
        for pane in [layout.accounts, layout.guide] {
            // The inspector's rows are the dialog's, full width.
            for y in [pane.y, pane.maxY - 1] where !(inspector.map { y >= $0.y && y < $0.maxY } ?? false) {
                let beside = (pane.x..<pane.maxX).filter { x in y < top || y > bottom || x < left || x > right }
                let row = beside.map { buffer[$0, y].symbol }, under = beside.map { plain[$0, y].symbol }
                if row != under && !row.allSatisfy({ $0 == " " || $0.isEmpty }) { found.append("row \(y) at x \(pane.x): \(row.joined())") }
            }
        }
        return found
    }

    /// The chooser's dialogs, each as a key press or an event away.
    static let dialogs: [(String, @Sendable (Size) -> AppState)] = [
        ("sign-in code", { size in
            var state = Fixture.state(size: size)
            _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
            _ = state.reduce(.codeReady(Fixture.code()))
            return state
        }),
        ("sign-in code with the inspector", { size in
            var state = Fixture.state(size: size)
            _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
            _ = state.reduce(.codeReady(Fixture.code()))
            _ = Fixture.press(.character("i"), on: &state)
            return state
        }),
        ("welcome with the inspector", { size in
            var state = Fixture.state(size: size)
            _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
            _ = state.reduce(.codeReady(Fixture.code()))
            _ = Fixture.press(.character("i"), on: &state)
            _ = state.reduce(.signInEnded(ScreenSnapshotTests.endings[0].1, conflict: nil))
            return state
        }),
        ("add an account", { size in
            var state = Fixture.several(size: size)
            _ = Fixture.press(.character("a"), on: &state)
            return state
        }),
        ("link", { size in
            var state = Fixture.several(size: size)
            _ = Fixture.press(.character("l"), on: &state)
            return state
        }),
        ("help", { size in
            var state = Fixture.several(size: size)
            _ = Fixture.press(.character("?"), on: &state)
            return state
        }),
        ("PIN", { size in
            var state = Fixture.several(size: size, protected: [Fixture.grace.id])
            _ = Fixture.press(.down, .enter, on: &state)
            return state
        }),
        ("disconnect", { size in
            var state = Fixture.several(size: size)
            _ = Fixture.press(.character("d"), on: &state)
            return state
        }),
    ]

    @Test("a dialog covers a pane's border row wholly or not at all: no piece of a pane's title or corner is left beside it",
          arguments: ScreenSnapshotTests.narrow)
    func borderRowsWholeOrUntouched(size: Size) throws {
        for (name, make) in Self.dialogs {
            let state = make(size)
            #expect(state.dialog != nil, "\(name)")
            let plain = Screen.draw({ var plain = state; plain.dialog = nil; return plain }())
            let buffer = Screen.draw(state)
            #expect(Self.cutBorders(buffer, plain: plain, layout: try #require(state.layout), inspector: state.inspectorArea) == [], "\(name)")
            #expect(Self.fragments(buffer, layout: try #require(state.layout)) == [], "\(name)")
            if name == "sign-in code with the inspector" || name == "welcome with the inspector" {
                let file = name == "welcome with the inspector" ? "backdrop-welcome-inspector" : "backdrop-code-inspector"
                Snapshot.check(buffer, ScreenSnapshotTests.name(file, size))
            }
        }
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
