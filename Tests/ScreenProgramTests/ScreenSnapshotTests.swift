import Foundation
import Testing
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Every pane and dialog, drawn into the cell buffer at two sizes and
/// compared with golden text.
@Suite("Screen snapshots")
struct ScreenSnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]
    /// The sizes new drawing is checked at: the smallest the chooser draws in, and the usual one.
    static let narrow = [Size(width: 60, height: 16), Size(width: 80, height: 24)]

    static func name(_ scenario: String, _ size: Size) -> String { "\(scenario)-\(size.width)x\(size.height)" }

    @Test("anonymous, no accounts", arguments: sizes)
    func anonymous(size: Size) {
        Snapshot.check(Screen.draw(Fixture.state(size: size)), Self.name("anonymous", size))
    }

    @Test("one account, active", arguments: sizes)
    func oneAccount(size: Size) {
        Snapshot.check(Screen.draw(Fixture.state(size: size, accounts: [Fixture.ada], active: Fixture.ada, favourites: ["sky"])), Self.name("one-account", size))
    }

    @Test("several accounts in mixed states, selection moved, guide focused", arguments: sizes)
    func several(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.down, .tab, .down, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("several", size))
    }

    @Test("filter as you type", arguments: sizes)
    func filter(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("Ö", on: &state)  // matches the "ö" of Ångström: case-insensitive beyond ASCII
        Snapshot.check(Screen.draw(state), Self.name("filter", size))
    }

    /// The cells a filter's match is drawn in: the built-in theme underlines them.
    static let underlined: (name: String, cells: @Sendable (Cell) -> Bool) = (
        "underlined (the characters the filter matched)", { $0.style.attributes.contains(.underline) }
    )

    @Test("filter matching characters in order, not together: “adlv” finds Ada Lovelace, its matched letters highlighted", arguments: sizes)
    func filterScattered(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("adlv", on: &state)
        Snapshot.check(Screen.draw(state), Self.name("filter-scattered", size), marking: Self.underlined)
    }

    @Test("filter ranking the best match first, the selection moved off it; matches in an email, which the row does not show, are not marked", arguments: sizes)
    func filterRanked(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("al", on: &state)
        _ = Fixture.press(.down, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("filter-ranked", size), marking: Self.underlined)
    }

    @Test("filter with no match", arguments: sizes)
    func filterNoMatch(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("nobody", on: &state)
        _ = Fixture.press(.enter, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("filter-empty", size))
    }

    @Test("sign-in: choosing a provider", arguments: sizes)
    func choosing(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("a"), .down, .down, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("signin-choose", size))
    }

    @Test("sign-in: the provider is already signed in here, so continue as someone or get a new code", arguments: sizes)
    func continuing(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("signin-continue", size))
    }

    @Test("sign-in: asking for a code", arguments: sizes)
    func requesting(size: Size) {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("signin-requesting", size))
    }

    @Test("sign-in: the code, the URL, the QR code, the countdown", arguments: sizes)
    func waiting(size: Size) {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.codeReady(Fixture.code()))
        _ = state.reduce(.tick(Fixture.now.advanced(by: 12)))
        Snapshot.check(Screen.draw(state), Self.name("signin-waiting", size))
    }

    @Test("sign-in: the QR code is hidden with a note when the terminal is small")
    func waitingSmall() {
        var state = Fixture.state(size: Size(width: 64, height: 18))
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.codeReady(Fixture.code()))
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("WDJB-MJHT".map(String.init).joined(separator: " ")))
        #expect(!buffer.text.contains("▀▄"))
        Snapshot.check(buffer, "signin-waiting-64x18")
    }

    @Test("sign-in with the inspector open: the QR code's note names the size at which it shows beside the inspector, and at that size it does")
    func waitingWithInspector() throws {
        func drawn(_ size: Size) -> Buffer {
            var state = Fixture.state(size: size)
            _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
            _ = state.reduce(.codeReady(Fixture.code()))
            _ = Fixture.press(.character("i"), on: &state)
            return Screen.draw(state)
        }
        let small = drawn(Size(width: 80, height: 24))
        let words = small.lines.joined(separator: " ").split { $0 == " " || $0 == "│" }.joined(separator: " ")
        #expect(!small.text.contains("▀▄"))
        let note = try #require(words.firstMatch(of: /QR code hidden: enlarge to (\d+)×(\d+), or close the inspector \(i\)\./),
                                "\(words)")
        let needed = Size(width: try #require(Int(String(note.output.1))), height: try #require(Int(String(note.output.2))))
        #expect(needed.height > 24, "80×24 is not enough beside the inspector")
        #expect(drawn(needed).text.contains("▀▄"), "the QR code shows at \(needed.width)×\(needed.height)")
        #expect(!drawn(Size(width: needed.width, height: needed.height - 1)).text.contains("▀▄"), "and not a row less")
    }

    static let endings: [(String, SignInEnding)] = [
        ("welcome", SignInEnding(outcome: .approved(AccountID(5), isNew: true), accountName: "Grace Hopper", isNew: true)),
        ("welcome-back", SignInEnding(outcome: .approved(AccountID(1), isNew: false), accountName: "Ada Lovelace")),
        ("linked", SignInEnding(outcome: .approved(AccountID(1), isNew: false), accountName: "Ada Lovelace", linked: true)),
        ("denied", SignInEnding(outcome: .denied)),
        ("expired", SignInEnding(outcome: .expired)),
        ("error", SignInEnding(outcome: .providerError("invalid_client: the client id is not registered"))),
        ("offline", SignInEnding(outcome: .offline("connection refused at 127.0.0.1:8628"))),
    ]

    @Test("sign-in: each outcome has its own screen", arguments: [0, 1, 2, 3, 4, 5, 6])
    func outcomes(index: Int) {
        for size in Self.sizes {
            var state = Fixture.state(size: size)
            _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
            _ = state.reduce(.codeReady(Fixture.code()))
            _ = state.reduce(.signInEnded(Self.endings[index].1, conflict: nil))
            Snapshot.check(Screen.draw(state), Self.name("signin-" + Self.endings[index].0, size))
        }
    }

    @Test("conflict: merge offered", arguments: sizes)
    func conflict(size: Size) {
        var state = Fixture.several(size: size)
        let conflict = AuthConflict(identity: Identity(provider: "gitlab", subject: "alan"), active: AccountID(1), owner: AccountID(4), sharedProviders: [])
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(AccountID(4), isNew: false)), conflict: ConflictDialog(
            conflict: conflict, providerName: "GitLab", ownerName: "Alan Turing", activeName: "Ada Lovelace")))
        Snapshot.check(Screen.draw(state), Self.name("conflict", size))
    }

    @Test("conflict where both hold an identity at one provider: merge offered, and the dialog says the account keeps both", arguments: narrow)
    func conflictSharedProvider(size: Size) {
        var state = Fixture.several(size: size)
        let conflict = AuthConflict(identity: Identity(provider: "demo", subject: "zoe"), active: AccountID(1), owner: AccountID(3), sharedProviders: ["demo"])
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(AccountID(3), isNew: false)), conflict: ConflictDialog(
            conflict: conflict, providerName: "Demo", ownerName: "Zoë Ångström", activeName: "Ada Lovelace")))
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("Merge Zoë Ångström into Ada Lovelace"))
        #expect(buffer.text.contains("keeps both"))
        Snapshot.check(buffer, Self.name("conflict-shared-provider", size))
    }

    @Test("conflict under a rule of one identity per provider: merge not offered, and the dialog says why")
    func conflictNoMerge() {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        let conflict = AuthConflict(identity: Identity(provider: "demo", subject: "zoe"), active: AccountID(1), owner: AccountID(3), sharedProviders: ["demo"],
                                    rule: IdentityRule(severalAtOneProvider: false))
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(AccountID(3), isNew: false)), conflict: ConflictDialog(
            conflict: conflict, providerName: "Demo", ownerName: "Zoë Ångström", activeName: "Ada Lovelace")))
        let buffer = Screen.draw(state)
        #expect(!buffer.text.contains("Merge"))
        #expect(buffer.text.contains("one identity per provider"))
        Snapshot.check(buffer, "conflict-nomerge-80x24")
    }

    @Test("disconnect asks first", arguments: sizes)
    func disconnect(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("d"), .down, on: &state)
        Snapshot.check(Screen.draw(state), Self.name("disconnect", size))
    }

    @Test("help overlay", arguments: sizes)
    func help(size: Size) {
        var state = Fixture.several(size: size)
        _ = Fixture.press(.character("?"), on: &state)
        Snapshot.check(Screen.draw(state), Self.name("help", size))
    }

    @Test("too small", arguments: [Size(width: 50, height: 12), Size(width: 80, height: 10)])
    func tooSmall(size: Size) {
        Snapshot.check(Screen.draw(Fixture.several(size: size)), Self.name("too-small", size))
    }

    @Test("a toast about another session", arguments: sizes)
    func toast(size: Size) {
        var state = Fixture.several(size: size)
        _ = state.reduce(.statusChanged(UserStatusChanged(
            session: SessionKey("pts/7")!, previous: .account(Fixture.grace), current: .anonymous,
            reason: .revoked(Identity(provider: "microsoft", subject: "oid-7")))))
        Snapshot.check(Screen.draw(state), Self.name("toast", size))
    }
}
