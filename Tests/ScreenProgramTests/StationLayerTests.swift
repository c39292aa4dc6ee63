import ScreenKit
import StationConfig
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// A station's rules on an injected clock: the reducer gets time only in actions.
@Suite("a station: the layer around the chooser")
struct StationLayerTests {
    static let size = Size(width: 100, height: 30)
    static let settings = StationSettings(idleTimeout: 120, countdown: 15, greeting: "Welcome to the lab")

    func station(active: Account? = Fixture.ada) -> Station {
        Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: active), settings: Self.settings)
    }

    @Test("q, Ctrl-C, Ctrl-Z, Ctrl-\\, o, d and t only say that the station is locked; choosing and typing a filter still work")
    func lockedKeys() {
        var state = station()
        for key: Key in [.character("q"), .control("c"), .control("z"), .control("\\"), .character("o"), .character("d"), .character("t")] {
            #expect(state.reduce(.input(.key(key))).isEmpty, "\(key)")
            #expect(state.isRunning && state.dialog == nil)
        }
        #expect(state.toasts.map(\.text) == ["This station is locked."], "one toast, not one per key")
        #expect(StationScreen.draw(state).lines.last?.contains("This station is locked.") == true, "the toast has the key bar's row")
        var later = state
        _ = later.reduce(.tick(state.now.advanced(by: AppState.toastSeconds + 1)))
        let keyBar = StationScreen.draw(later).lines.last ?? ""
        #expect(!["quit", "theme", "disconnect"].contains { keyBar.contains($0) }, "\(keyBar)")
        #expect(keyBar.contains("⏎ switch"), "the keys are back once the toast has gone")
        _ = state.reduce(.input(.key(.character("/"))))
        for c in "q" { _ = state.reduce(.input(.key(.character(c)))) }
        #expect(state.accounts.filter == "q", "a q typed into the filter is a letter")
        var plain = Fixture.state(size: Self.size)
        #expect(plain.reduce(.input(.key(.character("q")))) == [.quit], "outside a station q quits")
    }

    @Test("idle during an outage: the first screen at once with nobody shown; the sign-out is asked for again when the store is back, until it says so")
    func idleReturnOffline() {
        var state = station()
        let start = state.now
        _ = state.reduce(.input(.key(.down)))
        _ = state.reduce(.storeOffline("postgresql://lab@db.example.org/fleet: the server does not answer"))
        #expect(state.reduce(.tick(start.advanced(by: 120))).isEmpty)
        #expect(state.reduce(.tick(start.advanced(by: 135))) == [.chooser(.signOut(.idle))], "asked for, though the store cannot be reached")
        #expect(state.active == .anonymous && state.dialog == nil, "nothing of Ada stays on the screen")
        #expect(!StationScreen.draw(state).lines[0].contains("Ada Lovelace"), "\(StationScreen.draw(state).lines[0])")
        // The store answers: the sign-out first, then the list read again.
        #expect(state.reduce(.storeOffline(nil)) == [.chooser(.signOut(.idle)), .chooser(.reload)])
        // Gone again before it was written: asked for once more on the next return.
        _ = state.reduce(.storeOffline("gone again"))
        #expect(state.reduce(.storeOffline(nil)) == [.chooser(.signOut(.idle)), .chooser(.reload)])
        // The store says it is done: nothing more is owed.
        _ = state.reduce(.statusChanged(UserStatusChanged(session: state.session, previous: .account(Fixture.ada), current: .anonymous, reason: .signedOut)))
        _ = state.reduce(.storeOffline("and again"))
        #expect(state.reduce(.storeOffline(nil)) == [.chooser(.reload)])
    }

    @Test("idle: nothing for idle_timeout, then a countdown, then sign-out and the first screen")
    func idleReturn() {
        var state = station()
        let start = state.now
        _ = state.reduce(.input(.key(.down)))
        #expect(state.nextDeadline == start.advanced(by: 120), "one wake-up, when the countdown is due")
        #expect(state.reduce(.tick(start.advanced(by: 119))).isEmpty)
        #expect(state.secondsLeft == nil && !state.needsTicks)
        #expect(state.reduce(.tick(start.advanced(by: 120))).isEmpty)
        #expect(state.secondsLeft == 15 && state.needsTicks)
        #expect(StationScreen.draw(state).text.contains("Ada Lovelace will be signed out in 15 s."))
        #expect(state.reduce(.tick(start.advanced(by: 134))).isEmpty)
        #expect(state.secondsLeft == 1)
        #expect(state.reduce(.tick(start.advanced(by: 135))) == [.chooser(.signOut(.idle))])
        #expect(state.secondsLeft == nil && state.accounts.selection == 0 && state.dialog == nil)
    }

    @Test("a station that reports itself acts on its session only once it holds its name; while another machine does, nothing here signs anyone out")
    func nameHeldElsewhere() {
        var state = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada), settings: Self.settings, holdsName: false)
        let start = state.now
        #expect(state.reduce(.loaded(state.accounts.list, active: state.active)).isEmpty, "not yet known to hold its name: Ada is left alone")
        let taken = "Another machine is running as station lab-3 on tty1 (heard from 4 s ago): two machines cannot share one station's session."
        #expect(state.reduce(.stationName(taken: taken)).isEmpty)
        #expect(StationScreen.draw(state).text.contains("Name in use — waiting"))
        #expect(state.chooser.unavailable(.select)?.reason == taken)
        _ = state.reduce(.input(.key(.enter)))
        #expect(state.toasts.last?.text == taken, "a switch says why it cannot act")
        _ = state.reduce(.tick(start.advanced(by: 120)))
        #expect(state.reduce(.tick(start.advanced(by: 136))).isEmpty, "idle: the first screen, but no sign-out of the other machine's person")
        #expect(state.reduce(.terminate) == [.chooser(.quit)], "nor at a stop")
        var held = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada), settings: Self.settings, holdsName: false)
        _ = held.reduce(.loaded(held.accounts.list, active: held.active))
        #expect(held.reduce(.stationName(taken: nil)) == [.chooser(.signOut(.leftOver))], "once it holds its name, whoever was left from a stop is signed out")
        #expect(!StationScreen.draw(held).text.contains("in use"))
    }

    @Test("a key during the countdown cancels it and does nothing else; a sign-in in progress is cancelled at the end")
    func keyCancels() {
        var state = station()
        let start = state.now
        _ = state.reduce(.tick(start.advanced(by: 121)))
        #expect(state.secondsLeft != nil)
        let before = state.accounts.selection
        #expect(state.reduce(.input(.key(.down)), at: start.advanced(by: 122)).isEmpty)
        #expect(state.accounts.selection == before, "the key that ended the countdown is used up")
        #expect(state.secondsLeft == nil)

        _ = state.reduce(.input(.key(.character("a"))))
        _ = state.reduce(.input(.key(.enter)))
        guard case .signIn = state.dialog else { Issue.record("no sign-in dialog"); return }
        let effects = state.reduce(.tick(start.advanced(by: 122 + 135)))
        #expect(effects == [.chooser(.cancelSignIn), .chooser(.signOut(.idle))] && state.dialog == nil)
    }

    @Test("anonymous on the first screen, a station never needs to wake")
    func restingStation() {
        var state = station(active: nil)
        #expect(state.nextDeadline == nil)
        #expect(state.reduce(.tick(state.now.advanced(by: 10_000))).isEmpty)
    }

    @Test("[kiosk] settings as values: only the listed providers are offered, the greeting heads the top bar")
    func settings() {
        let settings = StationSettings(idleTimeout: 30, countdown: 5, greeting: "Hi", providers: ["demo"])
        let state = Station(Fixture.state(size: Self.size), settings: settings)
        #expect(state.providers.map(\.id) == ["demo"])
        #expect(StationScreen.draw(state).lines.first?.hasPrefix(" Hi") == true)
    }

    @Test("F12 asks for the operator PIN; a wrong one says so, a right one opens the operator menu: leave kiosk mode, sign out, disconnect")
    func operatorMenu() {
        var state = station()
        _ = state.reduce(.input(.key(.function(12))))
        guard case .operatorPIN = state.stationDialog else { Issue.record("no operator PIN dialog"); return }
        for c in "2468" { _ = state.reduce(.input(.key(.character(c)))) }
        #expect(state.reduce(.input(.key(.enter))) == [.checkOperatorPIN("2468")])
        _ = state.reduce(.operatorPINChecked(.wrong(retryAt: nil)))
        guard case .operatorPIN(let wrong) = state.stationDialog else { Issue.record("the dialog closed on a wrong PIN"); return }
        #expect(wrong.wasWrong && wrong.digits.isEmpty)
        #expect(StationScreen.draw(state).text.contains("Wrong PIN. Try again."))
        // An answer that comes while no PIN is being checked (a late one, after Esc and F12 again) is dropped.
        _ = state.reduce(.operatorPINChecked(.accepted))
        #expect(state.stationDialog == .operatorPIN(wrong))
        for c in "1357" { _ = state.reduce(.input(.key(.character(c)))) }
        #expect(state.reduce(.input(.key(.enter))) == [.checkOperatorPIN("1357")])
        _ = state.reduce(.operatorPINChecked(.accepted))
        guard case .operatorMenu(0) = state.stationDialog else { Issue.record("no operator menu"); return }
        #expect(StationScreen.draw(state).text.contains("Leave kiosk mode"))

        var signOut = state
        _ = signOut.reduce(.input(.key(.down)))
        #expect(signOut.reduce(.input(.key(.enter))) == [.chooser(.signOut(.operatorMenu))])
        var disconnect = state
        _ = disconnect.reduce(.input(.key(.down)))
        _ = disconnect.reduce(.input(.key(.down)))
        _ = disconnect.reduce(.input(.key(.enter)))
        guard case .disconnect = disconnect.dialog else { Issue.record("no disconnect dialog"); return }

        #expect(state.reduce(.input(.key(.enter))) == [.chooser(.reload)], "the list by use is read from the store")
        #expect(state.own == nil && state.dialog == nil, "kiosk mode left")
        #expect(state.reduce(.input(.key(.character("q")))) == [.chooser(.quit)])
        var plain = Fixture.state(size: Self.size)
        #expect(plain.reduce(.input(.key(.function(12)))).isEmpty && plain.dialog == nil, "F12 is nothing outside a station")
    }

    @Test("the hand-off: a person chosen here gets the command once no dialog shows; who another program or a previous run made active does not; it ends at the first screen, signed out")
    func handOff() throws {
        var settings = Self.settings
        settings.command = ["bash", "--login"]
        var state = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada), settings: settings)
        #expect(state.reduce(.loaded(state.accounts.list, active: state.active)) == [.chooser(.signOut(.leftOver))], "active at the start: signed out, and no hand-off")
        #expect(state.reduce(.statusChanged(UserStatusChanged(
            session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.grace), reason: .external))) == [.chooser(.loadFavourites(Fixture.grace.id)), .chooser(.reload)],
            "made active by another program: no hand-off")

        // Signed in here: the welcome shows first, then the command.
        state.chooser.dialog = .help(scroll: 0)
        let ada = UserStatusChanged(session: Fixture.session, previous: .anonymous, current: .account(Fixture.ada), reason: .signedIn(isNew: false))
        #expect(state.reduce(.statusChanged(ada)) == [.chooser(.loadFavourites(Fixture.ada.id)), .chooser(.reload)])
        #expect(state.own?.handOff == .due(Fixture.ada.id))
        #expect(state.reduce(.input(.key(.escape))) == [.handOff(Fixture.ada.id)])
        #expect(state.own?.handOff == .running(Fixture.ada.id))
        #expect(state.reduce(.statusChanged(ada)) == [.chooser(.reload)], "once")

        // While it runs the station's own idle clock is still.
        let start = state.now
        #expect(state.nextStationDeadline == nil)
        #expect(state.reduce(.tick(start.advanced(by: 10_000))).isEmpty)
        #expect(state.secondsLeft == nil)

        // It ends: the first screen, signed out, the idle clock from now.
        let end = start.advanced(by: 10_001)
        #expect(state.reduce(.handOffEnded(end, notice: ("The station's command ended with status 3.", .warning))) == [.chooser(.signOut(.handOffEnded))])
        #expect(state.own?.handOff == .ended(Fixture.ada.id) && state.own?.lastActivity == end)
        #expect(state.toasts.map(\.text) == ["The station's command ended with status 3."])
        #expect(state.accounts.selection == 0 && state.dialog == nil)
        _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .account(Fixture.ada), current: .anonymous, reason: .signedOut)))
        #expect(state.own?.handOff == HandOffPhase.none)

        // Chosen again (a switch): the command again, at once.
        let grace = UserStatusChanged(session: Fixture.session, previous: .anonymous, current: .account(Fixture.grace), reason: .switched)
        #expect(state.reduce(.statusChanged(grace)) == [.chooser(.loadFavourites(Fixture.grace.id)), .handOff(Fixture.grace.id)], "a switch needs no read of the list")
        // Signed out from elsewhere meanwhile: the command is ended, once; its end brings the first screen.
        var elsewhere = state
        let out = UserStatusChanged(session: Fixture.session, previous: .account(Fixture.grace), current: .anonymous, reason: .external)
        #expect(elsewhere.reduce(.statusChanged(out)) == [.chooser(.reload), .endHandOff])
        #expect(elsewhere.own?.handOff == .ending(Fixture.grace.id))
        #expect(elsewhere.reduce(.accountsChanged(AccountsChanged(accounts: []))) == [.chooser(.reload)], "asked once")
        let selection = elsewhere.accounts.selection
        _ = elsewhere.reduce(.input(.key(.down)))
        #expect(elsewhere.accounts.selection == selection, "keys still count for nothing")
        #expect(elsewhere.reduce(.handOffEnded(end, notice: nil)).isEmpty, "nobody to sign out")
        #expect(elsewhere.own?.handOff == HandOffPhase.none)
        // The station is stopped meanwhile: nobody stays signed in.
        #expect(state.reduce(.terminate) == [.chooser(.signOut(.stopped)), .chooser(.quit)])
        #expect(state.reduce(.terminate) == [.chooser(.quit)], "a second signal signs out no second time")

        // Linked into (or merged into) whoever is active: that is no choice of a person here.
        var linked = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada), settings: settings)
        #expect(linked.reduce(.statusChanged(UserStatusChanged(
            session: Fixture.session, previous: .account(Fixture.ada), current: .account(Fixture.ada),
            reason: .linked(Identity(provider: "google", subject: "1"))))) == [.chooser(.reload)])
        #expect(linked.own?.handOff == HandOffPhase.none)

        // Keys and clicks count for nothing once the command is due to have the terminal; a late end after quitting is dropped.
        var starting = linked
        _ = starting.reduce(.statusChanged(grace))
        #expect(starting.own?.handOff == .running(Fixture.grace.id))
        #expect(starting.reduce(.input(.key(.down))).isEmpty && starting.reduce(.input(.key(.enter))).isEmpty)
        #expect(starting.accounts.selection == linked.accounts.selection)
        _ = starting.reduce(.terminate)
        #expect(starting.reduce(.handOffEnded(end, notice: nil)).isEmpty)

        var plain = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada], active: nil), settings: Self.settings)
        #expect(plain.reduce(.statusChanged(grace)) == [.chooser(.loadFavourites(Fixture.grace.id))], "no command: the chooser stays")
    }

    @Test("a station lists people by name, never by who used it last, with or without remember_last; the plain chooser keeps most recent first")
    func orderTellsNothing() {
        let zoe = Account(id: AccountID(7), name: "zoë", identities: Fixture.ada.identities)
        let bob = Account(id: AccountID(8), name: "Bob", identities: Fixture.grace.identities)
        // The store's order: most recent use first.
        let recentFirst = AccountList([zoe, Fixture.grace, bob, Fixture.ada])
        for remember in [false, true] {
            var settings = Self.settings
            settings.rememberLast = remember
            var state = Station(Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: nil), settings: settings)
            _ = state.reduce(.loaded(recentFirst, active: .anonymous))
            #expect(state.accounts.list.accounts.map(\.name) == ["Ada Lovelace", "Bob", "Grace Hopper", "zoë"], "remember_last \(remember)")
            // A switch here moves nobody to the top.
            _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .anonymous, current: .account(zoe), reason: .switched)))
            #expect(state.accounts.list.accounts.map(\.name) == ["Ada Lovelace", "Bob", "Grace Hopper", "zoë"], "after a switch")
        }
        var plain = Fixture.state(size: Self.size, accounts: [], active: nil)
        _ = plain.reduce(.loaded(recentFirst, active: .anonymous))
        #expect(plain.accounts.list.accounts.map(\.name) == ["zoë", "Grace Hopper", "Bob", "Ada Lovelace"])
        // The operator leaves kiosk mode: the plain chooser's order comes back with the next list.
        var left = station(active: nil)
        Fixture.press(.function(12), on: &left)
        Fixture.type("2468", on: &left)
        Fixture.press(.enter, on: &left)
        _ = left.reduce(.operatorPINChecked(.accepted))
        #expect(left.stationDialog.map { if case .operatorMenu = $0 { true } else { false } } == true)
        _ = left.reduce(.input(.key(.enter)))
        #expect(left.own == nil && !left.accounts.byName)
        _ = left.reduce(.loaded(recentFirst, active: .anonymous))
        #expect(left.accounts.list.accounts.map(\.name) == ["zoë", "Grace Hopper", "Bob", "Ada Lovelace"])
    }

    @Test("a clock off the server's by more than 5 s is said in the top bar, which way and how far; a name in use elsewhere is said first")
    func clockSkew() {
        var state = station(active: nil)
        _ = state.reduce(.clockSkew(12.4))
        #expect(StationScreen.draw(state).lines[0].contains("⚠ Clock 12 s ahead of the server's — set its time"), "\(StationScreen.draw(state).lines[0])")
        _ = state.reduce(.clockSkew(-95))
        #expect(StationScreen.draw(state).lines[0].contains("Clock 95 s behind the server's"))
        // With less room (someone active), a shorter form.
        var busy = station()
        _ = busy.reduce(.clockSkew(-95))
        #expect(StationScreen.draw(busy).lines[0].contains("⚠ Clock 95 s off"), "\(StationScreen.draw(busy).lines[0])")
        _ = state.reduce(.stationName(taken: "Another machine is running as station lab-3."))
        #expect(StationScreen.draw(state).lines[0].contains("name in use elsewhere"))
        _ = state.reduce(.stationName(taken: nil))
        _ = state.reduce(.clockSkew(nil))
        #expect(!StationScreen.draw(state).lines[0].contains("⚠"))
    }
}
