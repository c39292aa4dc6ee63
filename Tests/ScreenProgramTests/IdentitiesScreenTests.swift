import Testing
@testable import ChooserUI
import ScreenKit
import SwitchboardCore
import TerminalUI

/// Identities you can see and trust, in the chooser: two of one provider
/// told apart, the selected account's facts on the detail line, and a
/// switch to an account whose every identity was revoked.
@Suite("identities in the chooser")
struct IdentitiesScreenTests {
    static let sizes = [Size(width: 60, height: 16), Size(width: 80, height: 24)]
    static func name(_ scenario: String, _ size: Size) -> String { "\(scenario)-\(size.width)x\(size.height)" }

    /// Ada with two demo identities (a login each) and a GitHub one.
    static let ada = Account(id: AccountID(1), name: "Ada Lovelace", identities: [
        LinkedIdentity(identity: Identity(provider: "demo", subject: "ada"), displayName: "Ada Lovelace", email: "ada@example.org", login: "ada"),
        LinkedIdentity(identity: Identity(provider: "demo", subject: "ada2"), displayName: "Ada Lovelace", email: "ada@work.example",
                       state: .expired, login: "ada2"),
        LinkedIdentity(identity: Identity(provider: "github", subject: "583231"), displayName: "Ada Lovelace", email: "ada@example.org", login: "ada-l"),
    ])
    /// Alan, whose every identity was revoked.
    static let alan = Account(id: AccountID(4), name: "Alan Turing", identities: [
        LinkedIdentity(identity: Identity(provider: "demo", subject: "alan"), displayName: "Alan Turing", state: .revoked, login: "alan"),
        LinkedIdentity(identity: Identity(provider: "gitlab", subject: "alan"), displayName: "Alan Turing", state: .notFound),
    ])

    static func state(size: Size, protected: Set<AccountID> = []) -> AppState {
        Fixture.state(size: size, accounts: [ada, Fixture.grace, Fixture.zoe, alan], active: ada, protected: protected)
    }

    @Test("rows: two identities of one provider show their logins, cut with … where narrow; one alone stays short", arguments: sizes)
    func rows(size: Size) {
        let state = Self.state(size: size)
        let buffer = Screen.draw(state)
        // The pane is 30 columns wide: the first with its login, the others as +2.
        #expect(buffer.text.contains("demo ✓ ada  +2"), "\(buffer.text)")
        #expect(buffer.text.contains("demo ✓  google ✗"), "Zoë's one demo identity stays short")
        Snapshot.check(buffer, Self.name("two-of-one-provider", size))
        // Wider, a login is cut with … so that every identity shows; wider still, they show whole.
        let wide = Screen.draw(Self.state(size: Size(width: 120, height: 40))).text
        #expect(wide.contains("demo ✓ ada  demo ⚠ ad…  github ✓"), "\(wide)")
        #expect(Screen.draw(Self.state(size: Size(width: 160, height: 40))).text.contains("demo ✓ ada  demo ⚠ ada2  github ✓"))
    }

    @Test("the row's parts fit their room: words go first, then names are cut as little as showing the most allows")
    func rowFit() {
        let part = { (name: String?) in AccountsPane.IdentityPart(provider: "demo", matched: [], mark: "⚠", word: " expired", name: name, role: .stateExpired) }
        let parts = [part("ada"), part("ada2")]
        // "demo ⚠ expired ada  demo ⚠ expired ada2" is 39 wide.
        #expect(AccountsPane.IdentityPart.fit(parts, in: 39) == (true, 4))
        #expect(AccountsPane.IdentityPart.fit(parts, in: 23) == (false, 4))
        #expect(AccountsPane.IdentityPart.fit(parts, in: 22) == (false, 3))
        #expect(AccountsPane.IdentityPart.fit(parts, in: 20) == (false, 2))
        #expect(AccountsPane.IdentityPart.fit(parts, in: 19) == (false, 4), "both cannot show: the first keeps its whole name")
        #expect(AccountsPane.IdentityPart.shown(parts, withWords: false, nameWidth: 2, in: 10) == 1, "the rest go to +N")
    }

    @Test("disconnect dialog: two identities of one provider each with its login, and the label", arguments: sizes)
    func disconnect(size: Size) {
        var state = Self.state(size: size)
        Fixture.press(.character("d"), on: &state)
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("demo ada  ada@example.org"), "\(buffer.text)")
        #expect(IdentityList.row(Self.ada.identities[2], among: Self.ada.identities) == "github  ada@example.org")
        Snapshot.check(buffer, Self.name("disconnect-two-of-one-provider", size))
    }

    @Test("the detail line: the selected account's facts, full where they fit, short and cut where not; blank until read", arguments: sizes)
    func detailLine(size: Size) {
        var state = Self.state(size: size)
        #expect(state.detailWanted?.id == Self.ada.id, "the loop reads the selected account's facts")
        let facts: [Identity: TokenFacts] = [
            Self.ada.identities[0].identity: TokenFacts(expiresAt: Fixture.now.advanced(by: 52 * 60), scope: "openid profile"),
        ]
        _ = state.reduce(.detailRead(AccountDetail(account: Self.ada.id, identities: Self.ada.identities.map(\.identity), facts: facts)))
        #expect(state.detailWanted == nil)
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("demo ada ok, expires in 52"), "\(buffer.text)")
        Snapshot.check(buffer, Self.name("detail-line", size))
        // Grace selected: her facts are wanted, and until read the line is blank.
        Fixture.press(.down, on: &state)
        #expect(state.detailWanted?.id == Fixture.grace.id)
        #expect(!Screen.draw(state).text.contains("expires in"))
    }

    @Test("the detail line in full, where it fits")
    func detailLineFull() {
        var state = Fixture.state(size: Size(width: 160, height: 24), accounts: [Fixture.grace], active: nil)
        _ = state.reduce(.detailRead(AccountDetail(account: Fixture.grace.id, identities: Fixture.grace.identities.map(\.identity), facts: [:])))
        let text = DetailLine.text(state, width: 200)
        #expect(text == "microsoft: email grace@navy.example, subject oid-7, expired, no token stored")
    }

    @Test("Enter on an account whose every identity was revoked asks first: sign in again, switch anyway, or cancel", arguments: sizes)
    func signInAgainDialog(size: Size) {
        var state = Self.state(size: size)
        Fixture.press(.end, .up, .up, on: &state)
        #expect(state.accounts.account(at: state.accounts.selection)?.id == Self.alan.id)
        #expect(Fixture.press(.enter, on: &state).isEmpty, "no switch yet")
        guard case .signInAgain(let dialog) = state.dialog else {
            Issue.record("expected the sign-in-again dialog, got \(String(describing: state.dialog))")
            return
        }
        #expect(dialog.provider.id == "demo", "the revoked identity's provider, not the one gone")
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("Sign in again with Demo"))
        Snapshot.check(buffer, Self.name("sign-in-again", size))
    }

    @Test("sign-in-again answers: s switches, c and Esc stay, r switches then asks the provider for a code")
    func signInAgainAnswers() {
        func opened(protected: Set<AccountID> = []) -> AppState {
            var state = Self.state(size: Size(width: 80, height: 24), protected: protected)
            Fixture.press(.end, .up, .up, .enter, on: &state)
            return state
        }
        var state = opened()
        #expect(Fixture.press(.character("s"), on: &state) == [.switchAccount(Self.alan.id)])
        #expect(state.dialog == nil)
        for key in [Key.character("c"), .escape] {
            state = opened()
            #expect(Fixture.press(key, on: &state).isEmpty)
            #expect(state.dialog == nil)
        }
        state = opened()
        #expect(Fixture.press(.down, .enter, on: &state) == [.switchAccount(Self.alan.id)], "Enter takes the selected choice")
        state = opened()
        #expect(Fixture.press(.character("r"), on: &state) == [.switchAccount(Self.alan.id)])
        let effects = state.reduce(.statusChanged(UserStatusChanged(
            session: Fixture.session, previous: .account(Self.ada), current: .account(Self.alan), reason: .switched)))
        #expect(effects.contains(.startSignIn("demo", .signIn)), "\(effects)")
        guard case .signIn(let signIn) = state.dialog else {
            Issue.record("expected the sign-in dialog")
            return
        }
        #expect(signIn.provider?.id == "demo")
        // Only once: a later switch opens nothing.
        state.dialog = nil
        let later = state.reduce(.statusChanged(UserStatusChanged(
            session: Fixture.session, previous: .account(Self.ada), current: .account(Self.alan), reason: .switched)))
        #expect(!later.contains(.startSignIn("demo", .signIn)))
        // An account with a PIN asks for it first; the sign-in waits for the switch it makes.
        state = opened(protected: [Self.alan.id])
        #expect(Fixture.press(.character("r"), on: &state).isEmpty)
        guard case .pin = state.dialog else {
            Issue.record("expected the PIN dialog")
            return
        }
        #expect(state.signInAfterSwitch?.account == Self.alan.id)
        Fixture.press(.escape, on: &state)
        #expect(state.signInAfterSwitch == nil, "a PIN not given drops the sign-in")
    }

    @Test("Enter on an account with one identity still working switches as ever")
    func partlyRevokedSwitches() {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        Fixture.press(.down, .down, on: &state)
        #expect(state.accounts.account(at: state.accounts.selection)?.id == Fixture.zoe.id)
        #expect(Fixture.press(.enter, on: &state) == [.switchAccount(Fixture.zoe.id)])
    }
}
