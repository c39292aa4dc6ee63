import ScreenKit
import Foundation
import Testing
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The PIN dialog and the lock mark, through the reducer and as golden text.
@Suite("PIN dialog")
struct PINDialogTests {
    static let size = Size(width: 100, height: 30)

    /// Grace (second row) and Zoë have PINs; Ada is active.
    func protected() -> AppState { Fixture.several(size: Self.size, protected: [Fixture.grace.id, Fixture.zoe.id]) }

    func pin(_ state: AppState) -> PINDialog? {
        if case .pin(let dialog) = state.dialog { return dialog }
        return nil
    }

    @Test("Enter on a protected account opens the dialog instead of switching; an unprotected one switches")
    func enterAsks() {
        var state = protected()
        #expect(Fixture.press(.down, .enter, on: &state).isEmpty)
        #expect(pin(state)?.account?.id == Fixture.grace.id)
        #expect(Screen.draw(state).lines.last?.contains("⏎ unlock  ⌫ erase  esc cancel") == true)
        _ = Fixture.press(.escape, on: &state)
        #expect(state.dialog == nil)
        #expect(Fixture.press(.down, .down, .enter, on: &state) == [.switchAccount(Fixture.alan.id)])
    }

    @Test("digits are kept (at most twelve), other characters ignored, Backspace erases; Enter sends the PIN once")
    func typing() {
        var state = protected()
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("12a3 4", on: &state)
        #expect(pin(state)?.field.digits == "1234")
        _ = Fixture.press(.backspace, on: &state)
        #expect(pin(state)?.field.digits == "123")
        // Too short: the rule, in the dialog; nothing sent.
        #expect(Fixture.press(.enter, on: &state).isEmpty)
        #expect(pin(state)?.field.problem == "A PIN has 4 to 12 digits.")
        Fixture.type("4567890123456", on: &state)
        #expect(pin(state)?.field.digits == "123456789012")
        #expect(Fixture.press(.enter, on: &state) == [.switchWithPIN(Fixture.grace.id, pin: "123456789012")])
        #expect(pin(state)?.field.checking == true)
        // While checking, keys are not heard: no second check, no digit.
        #expect(Fixture.press(.enter, on: &state).isEmpty)
        Fixture.type("9", on: &state)
        #expect(pin(state)?.field.digits == "123456789012" && pin(state)?.field.checking == true)
        // But Esc takes the check back, and its late answer finds no dialog to tell.
        #expect(Fixture.press(.escape, on: &state) == [.cancelPINCheck])
        #expect(state.dialog == nil)
        #expect(state.reduce(.pinChecked(Fixture.grace.id, .accepted)).isEmpty && state.dialog == nil)
    }

    @Test("a wrong PIN says so and empties the field; a right one closes the dialog")
    func wrongThenRight() {
        var state = protected()
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("1111", on: &state)
        _ = Fixture.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(Fixture.grace.id, .wrong(retryAt: nil)))
        #expect(pin(state)?.field.wasWrong == true && pin(state)?.field.digits == "" && pin(state)?.field.checking == false)
        #expect(!state.needsTicks)
        Fixture.type("2468", on: &state)
        #expect(pin(state)?.field.wasWrong == false)
        _ = Fixture.press(.enter, on: &state)
        // An answer about another account changes nothing.
        _ = state.reduce(.pinChecked(Fixture.zoe.id, .accepted))
        #expect(pin(state)?.field.checking == true)
        _ = state.reduce(.pinChecked(Fixture.grace.id, .accepted))
        #expect(state.dialog == nil)
    }

    @Test("locked out: a countdown ticks, typing and Enter wait, only closing works; when the wait is over it takes digits")
    func lockedOut() {
        var state = protected()
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("0000", on: &state)
        _ = Fixture.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(Fixture.grace.id, .wrong(retryAt: Fixture.now.advanced(by: 30))))
        #expect(state.needsTicks)
        #expect(Screen.draw(state).lines.last?.trimmingCharacters(in: .whitespaces) == "esc close")
        Fixture.type("2468", on: &state)
        #expect(pin(state)?.field.digits == "")
        _ = state.reduce(.tick(Fixture.now.advanced(by: 30)))
        #expect(!state.needsTicks)
        Fixture.type("2468", on: &state)
        #expect(Fixture.press(.enter, on: &state) == [.switchWithPIN(Fixture.grace.id, pin: "2468")])
        _ = state.reduce(.pinChecked(Fixture.grace.id, .locked(until: Fixture.now.advanced(by: 90))))
        #expect(pin(state)?.field.isLocked(at: state.now) == true)
        _ = Fixture.press(.enter, on: &state)
        #expect(state.dialog == nil)
    }

    @Test("a switch refused for want of a PIN opens the dialog; continuing as a protected person asks too")
    func pinNeeded() {
        var state = protected()
        _ = state.reduce(.pinNeeded(Fixture.zoe.id))
        #expect(pin(state)?.account?.id == Fixture.zoe.id)
        _ = Fixture.press(.escape, on: &state)
        // Grace is signed in with microsoft here; Zoë (protected) with demo.
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        guard case .signIn(let signIn) = state.dialog, case .continuing(let people, _) = signIn.phase else {
            Issue.record("expected the continue-as choice")
            return
        }
        let zoe = people.firstIndex { $0.id == Fixture.zoe.id }
        _ = Fixture.press(.down, on: &state)
        #expect(zoe == 0)
        _ = Fixture.press(.up, .enter, on: &state)
        #expect(pin(state)?.account?.id == Fixture.zoe.id)
    }

    static let sizes = ScreenSnapshotTests.sizes

    @Test("the lock mark beside protected accounts", arguments: sizes)
    func lockMark(size: Size) {
        var state = Fixture.several(size: size, protected: [Fixture.grace.id, Fixture.ada.id])
        _ = Fixture.press(.down, on: &state)
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("pin-lock-mark", size))
    }

    @Test("the PIN dialog: dots for digits", arguments: sizes)
    func dialog(size: Size) {
        var state = Fixture.several(size: size, protected: [Fixture.grace.id])
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("2468", on: &state)
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("pin-dialog", size))
    }

    @Test("the PIN dialog after a wrong PIN, locked out with a countdown", arguments: sizes)
    func dialogLocked(size: Size) {
        var state = Fixture.several(size: size, protected: [Fixture.grace.id])
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("0000", on: &state)
        _ = Fixture.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(Fixture.grace.id, .wrong(retryAt: Fixture.now.advanced(by: 60))))
        _ = state.reduce(.tick(Fixture.now.advanced(by: 13)))
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("pin-locked", size))
    }

    @Test("the PIN dialog after a wrong PIN", arguments: [Size(width: 80, height: 24)])
    func dialogWrong(size: Size) {
        var state = Fixture.several(size: size, protected: [Fixture.grace.id])
        _ = Fixture.press(.down, .enter, on: &state)
        Fixture.type("0000", on: &state)
        _ = Fixture.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(Fixture.grace.id, .wrong(retryAt: nil)))
        Snapshot.check(Screen.draw(state), ScreenSnapshotTests.name("pin-wrong", size))
    }
}
