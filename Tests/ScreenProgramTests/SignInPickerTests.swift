import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The sign-in dialog's short lists (the providers, "already signed in
/// here") move as the lists do: g and Home to the first row, G and End to
/// the last; the "already signed in" list starts on a new code.
@Suite("Sign-in pickers")
struct SignInPickerTests {
    static func phase(_ state: AppState) -> SignInDialog.Phase? {
        if case .signIn(let signIn) = state.dialog { return signIn.phase }
        return nil
    }

    static func continuing(_ state: AppState) -> (people: Int, selection: Int)? {
        if case .continuing(let people, let selection)? = phase(state) { return (people.count, selection) }
        return nil
    }

    @Test("a (or + Add account) with a provider someone here uses starts on \"Sign in with a new code\"", arguments: ["a", "+"])
    func startsOnNewCode(_ how: String) {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        if how == "a" {
            _ = Fixture.press(.character("a"), on: &state)
        } else {
            _ = Fixture.press(.end, on: &state)
            _ = Fixture.press(.up, .enter, on: &state)
        }
        _ = Fixture.press(.down, .down, .enter, on: &state)
        guard let (people, selection) = Self.continuing(state) else { Issue.record("no picker: \(String(describing: state.dialog))"); return }
        #expect(selection == people)
        #expect(Screen.draw(state).text.contains("▸ Sign in with a new code"))
    }

    @Test("g, Home, G and End go to the ends of the picker", arguments: [(Key.character("g"), Key.character("G")), (.home, .end)])
    func ends(_ top: Key, _ bottom: Key) {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = Fixture.press(top, on: &state)
        #expect(Self.continuing(state)?.selection == 0)
        _ = Fixture.press(bottom, on: &state)
        let picker = Self.continuing(state)
        #expect(picker?.selection == picker?.people)
    }

    @Test("g and G in the provider list")
    func providerEnds() {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        _ = Fixture.press(.character("a"), .character("G"), on: &state)
        guard case .choosing(let last)? = Self.phase(state) else { Issue.record("no provider list"); return }
        #expect(last == Fixture.providers.count - 1)
        _ = Fixture.press(.character("g"), on: &state)
        guard case .choosing(0)? = Self.phase(state) else { Issue.record("not at the first provider"); return }
    }
}
