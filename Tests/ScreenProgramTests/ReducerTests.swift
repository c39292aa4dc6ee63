import ScreenKit
import Foundation
import Testing
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Every key binding and every event, through the one reducer.
@Suite("Reducer")
struct ReducerTests {
    static let size = Size(width: 100, height: 30)

    func several() -> AppState { Fixture.several(size: Self.size) }

    @Test("every key of the main table dispatches to its command")
    func mainTableDispatches() {
        for binding in Bindings.main.bindings {
            for key in binding.keys { #expect(Bindings.main.command(for: key) == binding.command, "\(key)") }
        }
        #expect(several().keyBar.map(\.key) == ["⏎", "a", "l", "s", "d", "/", "f", "t", "?", "q"])
    }

    @Test("a key whose command cannot act now is drawn dimmed and, pressed, says why and does nothing")
    func unavailableKeys() {
        var state = Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: nil)
        let dimmed = state.keyBar.filter { !$0.available }.map(\.label)
        #expect(dimmed == ["link", "sign out", "star"])
        let frame = Screen.draw(state)
        let bar = frame.lines.count - 1
        let x = frame.lines[bar].range(of: "l link").map { frame.lines[bar].distance(from: frame.lines[bar].startIndex, to: $0.lowerBound) }!
        #expect(frame[x, bar].style.attributes.contains(.dim), "the key bar draws it dimmed")
        let before = state.dialog == nil
        #expect(Fixture.press(.character("l"), on: &state).isEmpty)
        #expect(before && state.dialog == nil)
        #expect(state.toasts.last?.text == "Linking adds an identity to the active account: switch to one first.")
    }

    @Test("Ctrl-C and Ctrl-\\ quit from a dialog and the filter too; the filter and the PIN take typed characters through their tables")
    func everywhereKeys() {
        var state = several()
        _ = Fixture.press(.character("?"), on: &state)
        #expect(Fixture.press(.control("c"), on: &state) == [.quit])
        state = several()
        _ = Fixture.press(.character("/"), .character("q"), .character("a"), on: &state)
        #expect(state.accounts.filter == "qa" && state.isRunning, "q is typed into the filter")
        #expect(Fixture.press(.control("\\"), on: &state) == [.quit])
        #expect(FilterLine.keys.command(for: .character("x")) == .type && FilterLine.keys.command(for: .enter) == .confirm)
        #expect(Bindings.pin.command(for: .character("7")) == .type && Bindings.main.command(for: .character("x")) == nil)
    }

    @Test("↑/↓ and j/k move the selection, clamped; g/G and page keys jump")
    func moving() {
        var state = several()
        #expect(Fixture.press(.down, .character("j"), on: &state).isEmpty)
        #expect(state.accounts.selection == 2)
        _ = Fixture.press(.up, on: &state)
        #expect(state.accounts.selection == 1)
        _ = Fixture.press(.character("k"), .character("k"), .character("k"), on: &state)
        #expect(state.accounts.selection == 0)
        _ = Fixture.press(.character("G"), on: &state)
        #expect(state.accounts.selectedItem == .anonymous)
        _ = Fixture.press(.character("g"), on: &state)
        #expect(state.accounts.selection == 0)
        _ = Fixture.press(.pageDown, on: &state)
        #expect(state.accounts.selectedItem == .anonymous)  // six items fit on one page
        _ = Fixture.press(.pageUp, on: &state)
        #expect(state.accounts.selection == 0)
        _ = Fixture.press(.end, .home, on: &state)
        #expect(state.accounts.selection == 0)
    }

    @Test("Enter: switch to the selected account; nothing when it is active already")
    func enterSwitches() {
        var state = several()
        #expect(Fixture.press(.enter, on: &state).isEmpty)  // Ada is active
        #expect(Fixture.press(.down, .enter, on: &state) == [.switchAccount(Fixture.grace.id)])
    }

    @Test("Enter on + Add opens the sign-in dialog; on Anonymous it signs out")
    func enterOnSpecialRows() {
        var state = several()
        _ = Fixture.press(.character("G"), on: &state)
        #expect(Fixture.press(.enter, on: &state) == [.signOut(.asked)])
        _ = Fixture.press(.up, .enter, on: &state)
        guard case .signIn(let dialog) = state.dialog else { Issue.record("no sign-in dialog"); return }
        #expect(dialog.mode == .signIn)
    }

    @Test("a opens the sign-in dialog; choosing a provider starts it; one with a problem does not")
    func add() {
        var state = several()
        _ = Fixture.press(.character("a"), on: &state)
        #expect(Fixture.press(.down, .enter, on: &state).isEmpty)  // Work SSO needs a client id
        #expect(state.toasts.last?.kind == .error)
        // Nobody here holds a Demo identity that works: straight to a code.
        var fresh = Fixture.state(size: Self.size, accounts: [Fixture.grace])
        _ = Fixture.press(.character("a"), on: &fresh)
        #expect(Fixture.press(.down, .down, .enter, on: &fresh) == [.startSignIn("demo", .signIn)])
        guard case .signIn(let dialog) = fresh.dialog, case .requesting = dialog.phase else { Issue.record("not requesting"); return }
        #expect(dialog.provider?.name == "Demo")
    }

    @Test("add with a provider someone here is already signed in with: continue as them (a switch), or sign in with a new code")
    func continueAs() {
        var state = several()
        let present = state.accounts.list.accounts.filter { account in
            account.id != state.active.id && account.identities.contains { $0.provider == "demo" && $0.state.isAvailable }
        }
        #expect(!present.isEmpty, "the fixture has someone besides the active person signed in with Demo")
        _ = Fixture.press(.character("a"), .down, .down, on: &state)
        #expect(Fixture.press(.enter, on: &state).isEmpty, "no code asked for yet")
        guard case .signIn(let dialog) = state.dialog, case .continuing(let people, let selection) = dialog.phase else {
            Issue.record("not offering to continue"); return
        }
        #expect(people.map(\.id) == present.map(\.id))
        #expect(selection == people.count, "it starts on a new code: the person came to add an account")
        #expect(state.dialogKeys?.bindings.first?.label == "choose")
        var signIn = state
        for _ in people { _ = Fixture.press(.up, on: &state) }
        #expect(Fixture.press(.enter, on: &state) == [.switchAccount(present[0].id)])
        #expect(state.dialog == nil)
        // The row it starts on: a new code.
        #expect(Fixture.press(.down, .enter, on: &signIn) == [.startSignIn("demo", .signIn)])
        // Linking never offers it: it asks for a code at once.
        var link = several()
        _ = Fixture.press(.character("l"), on: &link)
        #expect(Fixture.press(.down, .down, .enter, on: &link) == [.startSignIn("demo", .link)])
    }

    @Test("l links when someone is active, and explains otherwise")
    func link() {
        var state = several()
        _ = Fixture.press(.character("l"), .enter, on: &state)
        guard case .signIn(let dialog) = state.dialog else { Issue.record("no dialog"); return }
        #expect(dialog.mode == .link)
        var anonymous = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("l"), on: &anonymous)
        #expect(anonymous.dialog == nil)
        #expect(anonymous.toasts.last?.text.contains("switch to one first") == true)
    }

    @Test("s signs out when someone is active")
    func signOut() {
        var state = several()
        #expect(Fixture.press(.character("s"), on: &state) == [.signOut(.asked)])
        var anonymous = Fixture.state(size: Self.size)
        #expect(Fixture.press(.character("s"), on: &anonymous).isEmpty)
        #expect(anonymous.toasts.count == 1)
    }

    @Test("d asks which identity, y disconnects it, n keeps it")
    func disconnect() {
        var state = several()
        _ = Fixture.press(.character("d"), .down, on: &state)
        #expect(Fixture.press(.character("y"), on: &state) == [.disconnect(Fixture.ada.identities[1].identity, pin: nil)])
        #expect(state.dialog == nil)
        _ = Fixture.press(.character("d"), on: &state)
        #expect(Fixture.press(.character("n"), on: &state).isEmpty)
        #expect(state.dialog == nil)
        _ = Fixture.press(.character("G"), .character("d"), on: &state)  // Anonymous row: nothing to disconnect
        #expect(state.dialog == nil)
    }

    @Test("/ filters as you type, case-insensitively, over names, emails and providers")
    func filter() {
        var state = several()
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("GRACE", on: &state)
        #expect(Fixture.visibleNames(state) == ["Grace Hopper"])
        _ = Fixture.press(.backspace, .backspace, .backspace, .backspace, .backspace, on: &state)
        Fixture.type("gitlab", on: &state)
        #expect(Fixture.visibleNames(state) == ["Alan Turing"])
        _ = Fixture.press(.escape, on: &state)
        #expect(state.accounts.filter.isEmpty && !state.accounts.isFiltering)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("example.se", on: &state)
        _ = Fixture.press(.enter, on: &state)
        #expect(!state.accounts.isFiltering)
        #expect(state.accounts.itemCount == 1)
        #expect(Fixture.press(.enter, on: &state) == [.switchAccount(Fixture.zoe.id)])
        _ = Fixture.press(.escape, on: &state)  // Esc outside typing clears it too
        #expect(state.accounts.itemCount == 6)
    }

    @Test("typing in the filter never triggers commands; Ctrl-C still quits")
    func filterSwallowsKeys() {
        var state = several()
        _ = Fixture.press(.character("/"), on: &state)
        #expect(Fixture.press(.character("q"), .character("s"), .character("d"), on: &state).isEmpty)
        #expect(state.accounts.filter == "qsd" && state.isRunning)
        #expect(Fixture.press(.control("c"), on: &state) == [.quit])
    }

    @Test("a 100 kB paste into the filter keeps its first 256 bytes and drops the rest; backspace and matching go on as before")
    func pasteIntoFilter() {
        var state = several()
        _ = Fixture.press(.character("/"), on: &state)
        let paste = String(repeating: "grace hopper ", count: 100_000 / 13)
        let started = ContinuousClock.now
        for character in paste { _ = state.reduce(.input(.key(.character(character)))) }
        #expect(ContinuousClock.now - started < .seconds(30), "a key past the limit costs next to nothing")
        #expect(state.accounts.filter.utf8.count == FilterLine.limit)
        #expect(paste.hasPrefix(state.accounts.filter))
        #expect(state.accounts.isFiltering && state.isRunning)
        _ = Fixture.press(.backspace, on: &state)
        #expect(state.accounts.filter.utf8.count == FilterLine.limit - 1)
        _ = Fixture.press(.escape, on: &state)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("grace hopper", on: &state)
        #expect(Fixture.visibleNames(state) == ["Grace Hopper"])
    }

    @Test("f stars and unstars the selected show for the active person only")
    func favourite() {
        var state = several()
        _ = Fixture.press(.tab, on: &state)
        #expect(state.focus == .guide)
        // Codebreakers (a favourite) is first; the next row is Evening News.
        #expect(Fixture.press(.character("f"), on: &state) == [.setFavourite("codebreakers", starred: false, account: Fixture.ada.id)])
        _ = Fixture.press(.down, on: &state)
        #expect(Fixture.press(.character("f"), on: &state) == [.setFavourite("news", starred: true, account: Fixture.ada.id)])
        var anonymous = Fixture.state(size: Self.size)
        #expect(Fixture.press(.character("f"), on: &anonymous).isEmpty)
        #expect(anonymous.toasts.count == 1)
    }

    @Test("t asks for the next theme; the change arrives as an event")
    func theme() {
        var state = several()
        #expect(Fixture.press(.character("t"), on: &state) == [.nextTheme])
        _ = state.reduce(.themeChanged(Theme.monochrome))
        #expect(state.theme.name == "monochrome")
    }

    @Test("? opens help, any of its keys closes it; q quits")
    func helpAndQuit() {
        var state = several()
        _ = Fixture.press(.character("?"), on: &state)
        guard case .help = state.dialog else { Issue.record("no help"); return }
        _ = Fixture.press(.escape, on: &state)
        #expect(state.dialog == nil)
        #expect(Fixture.press(.character("q"), on: &state) == [.quit])
        #expect(!state.isRunning)
    }

    @Test("help too long for the terminal scrolls: arrows a line, page keys a page, never past its ends")
    func helpScrolls() {
        var state = Fixture.state(size: Size(width: 80, height: 24))
        _ = Fixture.press(.character("?"), on: &state)
        #expect(!Screen.draw(state).text.contains("Stop typing and keep the filter"))
        #expect(Screen.draw(state).text.contains("↓ more"))
        _ = Fixture.press(.pageDown, .pageDown, .pageDown, on: &state)
        guard case .help(let bottom) = state.dialog, bottom > 0 else { Issue.record("did not scroll"); return }
        var text = Screen.draw(state).text
        #expect(text.contains("Stop typing and keep the filter") && text.contains("↑ more") && !text.contains("↓ more"))
        _ = Fixture.press(.down, on: &state)
        let scroll = { (state: AppState) -> Int? in if case .help(let scroll) = state.dialog { scroll } else { nil } }
        #expect(scroll(state) == bottom, "not past the end")
        _ = Fixture.press(.up, on: &state)
        #expect(scroll(state) == bottom - 1)
        _ = Fixture.press(.pageUp, .pageUp, .pageUp, on: &state)
        #expect(scroll(state) == 0)
        text = Screen.draw(state).text
        #expect(text.contains("Switch to the selected account") && !text.contains("↑ more"))
        var tall = Fixture.state(size: Size(width: 100, height: 50))
        _ = Fixture.press(.character("?"), .pageDown, on: &tall)
        #expect(scroll(tall) == 0, "all of it fits: nothing to scroll")
    }

    @Test("quitting during a sign-in cancels it first")
    func quitDuringSignIn() {
        var state = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        #expect(Fixture.press(.control("c"), on: &state) == [.cancelSignIn, .quit])
    }

    @Test("sign-in dialog: code, polls, slow-down, copy, open, cancel")
    func waiting() {
        var state = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.codeReady(Fixture.code(polls: 0)))
        #expect(state.needsTicks)
        _ = state.reduce(.signInProgress(SignInProgress(provider: "demo", phase: .polling(attempt: 3))))
        _ = state.reduce(.signInProgress(SignInProgress(provider: "demo", phase: .slowedDown(intervalSeconds: 10))))
        guard case .signIn(let dialog) = state.dialog, case .waiting(let code) = dialog.phase else { Issue.record("not waiting"); return }
        #expect(code.polls == 3 && code.interval == 10)
        #expect(Fixture.press(.character("c"), on: &state) == [.copy("WDJB-MJHT")])
        #expect(Fixture.press(.character("o"), on: &state) == [.open("http://127.0.0.1:8628/device?user_code=WDJB-MJHT")])
        #expect(Fixture.press(.escape, on: &state) == [.cancelSignIn])
        #expect(state.dialog == nil && !state.needsTicks)
    }

    @Test("i shows and hides the inspector once the sign-in talks to the provider; it stays open for the next sign-in, whose exchanges start afresh")
    func inspector() {
        var state = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("a"), on: &state)
        #expect(Fixture.press(.character("i"), on: &state).isEmpty)
        #expect(!state.inspectorShown && state.inspectorArea == nil, "no inspector while choosing a provider")
        _ = Fixture.press(.down, .down, .enter, .character("i"), on: &state)
        #expect(state.inspectorShown && state.inspectorArea != nil)
        let entry = FlowTraceEntry(elapsed: 0, reference: "OIDC Discovery §4", step: "discovery", status: 200, result: "OK")
        _ = state.reduce(.signInTraced([entry, entry]))
        _ = state.reduce(.signInTraced([entry]))  // a late, older list takes nothing away
        guard case .signIn(let dialog) = state.dialog else { Issue.record("no dialog"); return }
        #expect(dialog.trace.count == 2)
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .expired), conflict: nil))
        #expect(state.inspectorArea != nil)
        #expect(Fixture.press(.character("r"), on: &state) == [.startSignIn("demo", .signIn)])
        guard case .signIn(let again) = state.dialog else { Issue.record("no dialog"); return }
        #expect(again.trace.isEmpty && state.inspectorShown)
        _ = Fixture.press(.character("i"), on: &state)
        #expect(!state.inspectorShown && state.inspectorArea == nil)
    }

    @Test("outcomes: approved closes on Enter; expired and denied offer r to restart")
    func outcomes() {
        var state = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .expired), conflict: nil))
        #expect(Fixture.press(.character("r"), on: &state) == [.startSignIn("demo", .signIn)])
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .denied), conflict: nil))
        #expect(Fixture.press(.character("r"), on: &state) == [.startSignIn("demo", .signIn)])
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(AccountID(9), isNew: true), accountName: "Grace Hopper", isNew: true), conflict: nil))
        #expect(Fixture.press(.character("r"), on: &state).isEmpty)
        _ = Fixture.press(.enter, on: &state)
        #expect(state.dialog == nil)
    }

    @Test("a cancelled sign-in closes its dialog")
    func cancelledCloses() {
        var state = Fixture.state(size: Self.size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .cancelled), conflict: nil))
        #expect(state.dialog == nil)
    }

    @Test("a conflict between two accounts of one name tells them apart by number, in every line")
    func conflictOfNamesakes() {
        let namesakes = AuthConflict(identity: Identity(provider: "gitlab", subject: "ada2"), active: AccountID(1), owner: AccountID(4), sharedProviders: [])
        var state = several()
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(namesakes.owner, isNew: false)), conflict: ConflictDialog(
            conflict: namesakes, providerName: "GitLab", ownerName: "Ada Lovelace", activeName: "ada lovelace")))
        let screen = Screen.draw(state).text
        #expect(screen.contains("Merge Ada Lovelace (account 4) into ada lovelace (account 1)"), "\(screen)")
        #expect(screen.contains("Switch to Ada Lovelace (account 4)"))
        #expect(!screen.contains("Merge Ada Lovelace into"))
    }

    @Test("conflict: m, s, c and Enter answer; merge is not a key when refused")
    func conflict() {
        let allowed = AuthConflict(identity: Identity(provider: "gitlab", subject: "alan"), active: AccountID(1), owner: AccountID(4), sharedProviders: [])
        let refused = AuthConflict(identity: Identity(provider: "demo", subject: "zoe"), active: AccountID(1), owner: AccountID(3), sharedProviders: ["demo"],
                                     rule: IdentityRule(severalAtOneProvider: false))
        func open(_ conflict: AuthConflict) -> AppState {
            var state = several()
            _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(conflict.owner, isNew: false)), conflict: ConflictDialog(
                conflict: conflict, providerName: "X", ownerName: "Owner", activeName: "Active")))
            return state
        }
        for (key, choice) in [("m", ConflictChoice.merge), ("s", .switchAccount), ("c", .cancel)] {
            var state = open(allowed)
            #expect(Fixture.press(.character(Character(key)), on: &state) == [.resolveConflict(choice)])
            #expect(state.dialog == nil)
        }
        var state = open(allowed)
        #expect(Fixture.press(.down, .enter, on: &state) == [.resolveConflict(.switchAccount)])
        var noMerge = open(refused)
        #expect(Fixture.press(.character("m"), on: &noMerge).isEmpty)
        #expect(Fixture.press(.enter, on: &noMerge) == [.resolveConflict(.switchAccount)])
    }

    @Test("a click selects the row under it and focuses its pane; the wheel moves")
    func mouse() {
        var state = several()
        let layout = ScreenLayout(Self.size)!
        _ = state.reduce(.input(.mouse(MouseEvent(x: layout.accountList.x + 3, y: layout.accountList.y + 5, kind: .press))))
        #expect(state.accounts.selectedItem == .account(Fixture.zoe.id))
        _ = state.reduce(.input(.mouse(MouseEvent(x: layout.guideList.x + 3, y: layout.guideList.y + 2, kind: .press))))
        #expect(state.focus == .guide && state.guide.selection == 2)
        _ = state.reduce(.input(.mouse(MouseEvent(x: 0, y: 0, kind: .scrollDown))))
        #expect(state.guide.selection == 3)
    }

    @Test("resize below the minimum: only q works; back above, all is as it was")
    func resize() {
        var state = several()
        _ = Fixture.press(.down, on: &state)
        _ = state.reduce(.input(.resize(Size(width: 40, height: 10))))
        #expect(Fixture.press(.character("a"), .down, on: &state).isEmpty)
        #expect(state.dialog == nil && state.accounts.selection == 1)
        _ = state.reduce(.input(.resize(Self.size)))
        #expect(Fixture.press(.character("q"), on: &state) == [.quit])
    }

    @Test("status change in this session: status bar and accounts follow; another program's change reloads the list")
    func statusChanged() {
        var state = several()
        let effects = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.grace), reason: .switched)))
        #expect(effects == [.loadFavourites(Fixture.grace.id)])
        let external = UserStatusChanged(session: Fixture.session, previous: .account(Fixture.grace), current: .account(Fixture.ada), reason: .external)
        #expect(state.reduce(.statusChanged(external)) == [.loadFavourites(Fixture.ada.id), .reload])
        #expect(state.toasts.map(\.text) == ["Another program changed who is active: now Ada Lovelace."])
        state.toasts = []
        _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.grace), reason: .switched)))
        #expect(state.active.id == Fixture.grace.id)
        #expect(state.toasts.isEmpty)
    }

    @Test("revoked: a toast names whose and which provider, here and in other sessions")
    func revoked() {
        var state = several()
        _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .anonymous, reason: .revoked(Identity(provider: "github", subject: "583231")))))
        #expect(state.active == .anonymous)
        #expect(state.toasts.last?.text == "Ada Lovelace was signed out: github revoked the token.")
        _ = state.reduce(.statusChanged(UserStatusChanged(session: SessionKey("pts/9")!, previous: .account(Fixture.grace), current: .anonymous, reason: .revoked(Identity(provider: "microsoft", subject: "oid-7")))))
        #expect(state.active == .anonymous)
        #expect(state.toasts.last?.text == "Session pts/9 was signed out: microsoft revoked Grace Hopper's token.")
    }

    @Test("external, linked, merged and disconnected changes are told in toasts")
    func otherReasons() {
        for (reason, words) in [
            (StatusChangeReason.external, "Another program"), (.linked(Identity(provider: "gitlab", subject: "x")), "Linked gitlab"),
            (.merged, "Merged"), (.disconnected(Identity(provider: "demo", subject: "ada")), "Disconnected demo"),
        ] {
            var state = several()
            _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.ada), reason: reason)))
            #expect(state.toasts.last?.text.contains(words) == true, "\(reason)")
        }
    }

    @Test("the guide is the active person's: a switch asks for their stars, which come first; stale stars and anonymous show the plain guide")
    func guide() {
        var state = several()
        #expect(state.guide.shows.first?.id == "codebreakers")
        let toGrace = UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.grace), reason: .switched)
        #expect(state.reduce(.statusChanged(toGrace)) == [.loadFavourites(Fixture.grace.id)])
        #expect(state.guide.favourites.isEmpty, "Ada's stars are not Grace's")
        _ = state.reduce(.favouritesLoaded(Fixture.ada.id, ["bugs"]))
        #expect(state.guide.favourites.isEmpty, "stars read for someone no longer active are dropped")
        _ = state.reduce(.favouritesLoaded(Fixture.grace.id, ["bugs", "news"]))
        #expect(state.guide.shows.prefix(2).map(\.id) == ["news", "bugs"])
        _ = state.reduce(.favouriteSaved("bugs", starred: false, account: Fixture.grace.id))
        #expect(state.guide.favourites == ["news"])
        let out = UserStatusChanged(session: Fixture.session, previous: .account(Fixture.grace), current: .anonymous, reason: .signedOut)
        #expect(state.reduce(.statusChanged(out)).isEmpty)
        #expect(state.guide.favourites.isEmpty && state.guide.shows.first?.id == "news")
    }

    @Test("a switch here is reduced from its fact: the person moves to the top of the list, with no store read")
    func switchReorders() {
        var state = several()
        let first = state.accounts.list.accounts.first?.id
        let last = state.accounts.list.accounts.last!
        #expect(first != last.id)
        let change = UserStatusChanged(session: Fixture.session, previous: state.active, current: .account(last), reason: .switched)
        let effects = state.reduce(.statusChanged(change))
        #expect(!effects.contains(.reload), "\(effects)")
        #expect(state.accounts.list.accounts.first?.id == last.id && state.active.id == last.id)
    }

    @Test("identity state changes warn when an identity stops being available, and reload")
    func identityChanged() {
        var state = several()
        let change = IdentityStateChanged(identity: Identity(provider: "github", subject: "583231"), previous: .authorized, current: .revoked)
        #expect(state.reduce(.identityChanged(change)) == [.reload])
        #expect(state.toasts.last?.text.hasPrefix("Ada Lovelace's github sign-in is revoked") == true)
        #expect(state.reduce(.accountsChanged(AccountsChanged(accounts: []))) == [.reload])
    }

    @Test("a reload keeps the selection on the same account")
    func reloadKeepsSelection() {
        var state = several()
        _ = Fixture.press(.down, .down, on: &state)  // Zoë
        _ = state.reduce(.loaded(AccountList([Fixture.zoe, Fixture.ada, Fixture.grace]), active: .account(Fixture.ada)))
        #expect(state.accounts.selectedItem == .account(Fixture.zoe.id))
    }

    @Test("toasts expire on the tick after their time; at most three show")
    func toasts() {
        var state = several()
        for n in 1...5 { state.notify("n\(n)", .info) }
        #expect(state.toasts.map(\.text) == ["n3", "n4", "n5"])
        _ = state.reduce(.tick(Fixture.now.advanced(by: AppState.toastSeconds + 1)))
        #expect(state.toasts.isEmpty && state.nextDeadline == nil)
    }

    @Test("a toast a key raises after a quiet minute lasts its time from the key")
    func toastAfterQuiet() {
        var state = Fixture.state(size: Self.size)
        let key = Fixture.now.advanced(by: 60)
        // As the loop sends it: stamped with the time it came.
        _ = state.reduce(.input(.key(.character("s"))), at: key)
        #expect(state.toasts.count == 1)
        #expect(state.nextDeadline == key.advanced(by: AppState.toastSeconds))
        _ = state.reduce(.tick(key.advanced(by: 1)))
        #expect(state.toasts.count == 1, "still up a second later")
    }
}
