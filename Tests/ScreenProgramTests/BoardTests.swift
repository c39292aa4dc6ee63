import BoardUI
import ScreenKit
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The operator's board as a reducer: rows, the clock, the filter, the
/// selection, help, the mouse, and the operator PIN before every action.
enum BoardFixture {
    /// A whole minute, so the clock's texts are round.
    static let now = Moment(secondsSince1970: 1_800_000_000)
    static let ada = AccountID(rawValue: 1), grace = AccountID(rawValue: 2), linus = AccountID(rawValue: 3)

    static func station(
        _ name: String, _ terminal: String = "tty1", who: (AccountID, String)? = nil, idle: Double = 0, handOff: Bool = false,
        heartbeatAgo: Double = 10, lockedFor: Double? = nil, since: Double = 3600, clockOff: Double? = nil
    ) -> BoardStation {
        BoardStation(
            station: name, terminal: terminal, session: "\(name)/\(terminal)", active: who?.0, activeName: who?.1,
            since: now.advanced(by: -since),
            facts: StationStatus.Facts(
                signedIn: who != nil, handOffRunning: handOff, offlineFrom: now.advanced(by: 90 - heartbeatAgo),
                lockedUntil: lockedFor.map { now.advanced(by: $0) }, lastKey: now.advanced(by: -idle)),
            version: "0.9.0", started: now.advanced(by: -7200), heartbeat: now.advanced(by: -heartbeatAgo), clockOff: clockOff)
    }

    /// Six stations in every state, given out of order.
    static let fleet: [BoardStation] = [
        station("lab-3", who: (grace, "Grace Hopper"), idle: 60, handOff: true, since: 1200),
        station("lab-1", who: (ada, "Ada Lovelace"), idle: 180, since: 2400),
        station("lab-1", "tty2", idle: 900, since: 3 * 86_400 + 60),
        station("lab-4", heartbeatAgo: 200),
        station("lab-5", lockedFor: 60),
        station("lab-6", who: (linus, "Linus Torvalds"), idle: 125, since: 600),
    ]

    static func state(size: Size = Size(width: 100, height: 30), stations: [BoardStation] = fleet) -> BoardState {
        var state = BoardState(
            size: size, now: now, theme: .builtIn, clock: .fixed(0), operatorSession: "ops/pts/1", idleLimit: (timeout: 120, countdown: 15))
        _ = state.reduce(.loaded(stations))
        return state
    }

    @discardableResult
    static func press(_ keys: Key..., on state: inout BoardState) -> [BoardEffect] {
        keys.flatMap { state.reduce(.input(.key($0))) }
    }

    /// The operator PIN's field as the board's dialog holds it.
    static func field(_ digits: String = "", checking: Bool = false, wasWrong: Bool = false, problem: String? = nil) -> PINField {
        var field = PINField()
        (field.digits, field.checking, field.wasWrong, field.problem) = (digits, checking, wasWrong, problem)
        return field
    }

    static func type(_ text: String, on state: inout BoardState) {
        for character in text { _ = state.reduce(.input(.key(.character(character)))) }
    }

    static let events: [BoardEvent] = [
        BoardEvent(id: 7, at: now.advanced(by: -2400), session: "lab-1/tty1", kind: "signIn", account: ada, who: "Ada Lovelace", what: "signed in (demo:ada)"),
        BoardEvent(id: 9, at: now.advanced(by: -600), session: "lab-1/tty1", kind: "wrongPIN", account: grace, who: "Grace Hopper", what: "wrong account PIN"),
        BoardEvent(id: 12, at: now.advanced(by: -60), session: "lab-1/tty2", kind: "signOut", account: linus, who: "Linus Torvalds",
                   what: "signed out by the operator at ops/pts/1"),
    ]
}

@Suite("the operator's board: its reducer")
struct BoardReducerTests {
    typealias F = BoardFixture

    @Test("rows are sorted by station and terminal, each in its state, with who is there and the idle time")
    func rows() {
        let state = F.state()
        let rows = state.visible.map { state.stations[$0] }
        #expect(rows.map(\.key) == ["lab-1/tty1", "lab-1/tty2", "lab-3/tty1", "lab-4/tty1", "lab-5/tty1", "lab-6/tty1"])
        #expect(rows.map { state.status($0).words } == ["in use", "idle", "running the hand-off", "offline", "locked out", "sign-out in 10s"])
        #expect(rows.map(\.who) == ["Ada Lovelace", "Anonymous", "Grace Hopper", "Anonymous", "Anonymous", "Linus Torvalds"])
        #expect(rows.map { StationStatus.span(state.idleSeconds($0)) } == ["3m", "15m", "1m", "0s", "0s", "2m"])
        #expect(state.counts == (up: 5, inUse: 3, offline: 1))
    }

    @Test("the clock alone moves idle times, the countdown, a lock-out's end and a missed heartbeat: no read")
    func ticks() {
        var state = F.state()
        // Heartbeats wake nobody: the loop reads once when the first station that was up would miss its third.
        #expect(state.nextOfflineCheck == F.now.advanced(by: 80))
        let effects = state.reduce(.tick(F.now.advanced(by: 81)))
        #expect(effects.isEmpty)
        let byKey = Dictionary(uniqueKeysWithValues: state.stations.map { ($0.key, state.status($0).words) })
        // lab-1's heartbeat was 10 s ago, so 80 s more makes 90: offline one second later.
        #expect(byKey["lab-1/tty1"] == "offline")
        // A read that finds it beat no more leaves no check due for it.
        _ = state.reduce(.loaded(F.fleet))
        #expect(state.nextOfflineCheck == nil)
        #expect(state.stations.filter { state.status($0) == .offline }.count == 6)
        #expect(state.idleSeconds(state.stations[1]) == 900 + 81)
        var earlier = F.state()
        _ = earlier.reduce(.tick(F.now.advanced(by: 5)))
        #expect(earlier.status(earlier.stations[5]).words == "sign-out in 5s")
        _ = earlier.reduce(.tick(F.now.advanced(by: 11)))
        // Past the countdown the kiosk signs out by itself; until it says so, the row is in use.
        #expect(earlier.status(earlier.stations[5]).words == "in use")
        #expect(earlier.status(earlier.stations[4]).words == "locked out")
        _ = earlier.reduce(.tick(F.now.advanced(by: 61)))
        #expect(earlier.status(earlier.stations[4]).words == "idle")
    }

    @Test("the selection stays on its station when rows come and go, and the detail pane is read for it after every change")
    func selection() {
        var state = F.state()
        var effects = F.press(.down, .down, on: &state)
        #expect(state.selectedStation?.key == "lab-3/tty1")
        #expect(effects.last == .loadEvents(station: "lab-3", terminal: "tty1", session: "lab-3/tty1"))
        _ = state.reduce(.eventsLoaded(F.events, of: "lab-3/tty1"))
        #expect(state.events.count == 3)
        // Events for a station no longer selected are dropped.
        _ = state.reduce(.eventsLoaded([], of: "lab-1/tty1"))
        #expect(state.events.count == 3)
        effects = state.reduce(.loaded([F.station("lab-0")] + F.fleet))
        #expect(state.selectedStation?.key == "lab-3/tty1" && state.selection == 3)
        #expect(effects == [.loadEvents(station: "lab-3", terminal: "tty1", session: "lab-3/tty1")])
        // Its row gone, the selection stays in range.
        _ = state.reduce(.loaded(Array(F.fleet.prefix(2))))
        #expect(state.selection == 1)
        F.press(.end, on: &state)
        #expect(state.selection == 1)
        F.press(.home, on: &state)
        #expect(state.selection == 0)
    }

    @Test("/ filters by station, terminal, person or state as typed; esc clears it")
    func filter() {
        var state = F.state()
        F.press(.character("/"), on: &state)
        #expect(state.isFiltering && state.keyBar.map(\.label).contains("keep filter"))
        F.type("lab-1", on: &state)
        #expect(state.visible.count == 2)
        F.press(.backspace, .backspace, .backspace, .backspace, .backspace, on: &state)
        F.type("GRACE", on: &state)
        #expect(state.visible.map { state.stations[$0].key } == ["lab-3/tty1"])
        F.press(.enter, on: &state)
        #expect(!state.isFiltering && state.filter == "GRACE")
        F.press(.escape, on: &state)
        #expect(state.filter.isEmpty && state.visible.count == 6)
        F.press(.character("/"), on: &state)
        F.type("offline", on: &state)
        #expect(state.visible.map { state.stations[$0].key } == ["lab-4/tty1"])
        // A filter on a state follows the clock.
        _ = state.reduce(.tick(F.now.advanced(by: 100)))
        #expect(state.visible.count == 6)
    }

    @Test("s sorts by the longest idle, then by state with those needing the operator first, then by station again; the selection stays on its station")
    func sort() {
        var state = F.state()
        F.press(.down, on: &state)
        #expect(state.selectedStation?.key == "lab-1/tty2")
        F.press(.character("s"), on: &state)
        #expect(state.order == .idle)
        #expect(state.visible.map { state.stations[$0].key } == ["lab-1/tty2", "lab-1/tty1", "lab-6/tty1", "lab-3/tty1", "lab-4/tty1", "lab-5/tty1"])
        #expect(state.selection == 0 && state.selectedStation?.key == "lab-1/tty2")
        F.press(.character("s"), on: &state)
        #expect(state.visible.map { state.status(state.stations[$0]).words }
            == ["offline", "locked out", "sign-out in 10s", "running the hand-off", "in use", "idle"])
        F.press(.character("s"), on: &state)
        #expect(state.order == .station && state.visible == Array(0..<6))
    }

    @Test("the board's operator PIN is typed as the chooser's PINs are: digits only, 12 at most; fewer than 4 are not sent, with the rule")
    func operatorPINEntry() {
        var state = F.state()
        let signOut = OperatorAction.signOut(session: "lab-1/tty1", who: "Ada Lovelace")
        F.press(.character("o"), on: &state)
        F.type("123", on: &state)
        #expect(F.press(.enter, on: &state).isEmpty)
        #expect(state.dialog == .pin(F.field("123", problem: PINEntry.rule), then: signOut))
        F.type("4567890123456", on: &state)
        #expect(state.dialog == .pin(F.field("123456789012"), then: signOut), "a digit typed takes the rule away")
        // The chooser's PIN dialog takes the same.
        var chooser = Fixture.several(size: Size(width: 100, height: 30), protected: [Fixture.grace.id])
        _ = chooser.reduce(.pinNeeded(Fixture.grace.id))
        for character in "1234567890123" { _ = chooser.reduce(.input(.key(.character(character)))) }
        guard case .pin(let pin) = chooser.dialog else {
            Issue.record("no PIN dialog: \(String(describing: chooser.dialog))")
            return
        }
        #expect(pin.field.digits == "123456789012")
    }

    @Test("help scrolls a line or a page at a time within its lines, on the board as in the chooser; any other key closes it")
    func helpScroll() {
        #expect(HelpScroll.scrolled(0, by: .up, page: 10, most: 30) == 0)
        #expect(HelpScroll.scrolled(0, by: .pageDown, page: 10, most: 15) == 10)
        #expect(HelpScroll.scrolled(10, by: .pageDown, page: 10, most: 15) == 15)
        // Past the end after a resize: a key up moves from the end, not from where it was.
        #expect(HelpScroll.scrolled(40, by: .up, page: 10, most: 15) == 14)
        #expect(HelpScroll.scrolled(3, by: .confirm, page: 10, most: 15) == nil)
    }

    @Test("an operator action asks for the operator PIN, then asks first, then is done with it; the PIN is kept until the board is idle")
    func operatorAction() {
        var state = F.state()
        let signOut = OperatorAction.signOut(session: "lab-1/tty1", who: "Ada Lovelace")
        #expect(F.press(.character("o"), on: &state).isEmpty)
        #expect(state.dialog == .pin(PINField(), then: signOut))
        F.type("12a34", on: &state)
        #expect(state.dialog == .pin(F.field("1234"), then: signOut))
        #expect(F.press(.enter, on: &state) == [.checkOperatorPIN("1234", then: signOut)])
        #expect(state.dialog == .pin(F.field("1234", checking: true), then: signOut), "keys wait for the store's answer")
        _ = state.reduce(.pinChecked(digits: "1234", then: signOut, check: .wrong(retryAt: nil), problem: nil))
        #expect(state.dialog == .pin(F.field(wasWrong: true), then: signOut))
        // A PIN the store could not check says why, as the store said it.
        F.type("1357", on: &state)
        F.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(digits: "1357", then: signOut, check: .failed, problem: "The store is busy."))
        #expect(state.dialog == .pin(F.field(problem: "The store is busy."), then: signOut))
        #expect(!state.isUnlocked)
        F.type("2468", on: &state)
        F.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(digits: "2468", then: signOut, check: .accepted, problem: nil))
        #expect(state.dialog == .confirm(signOut) && state.isUnlocked)
        #expect(F.press(.character("y"), on: &state) == [.perform(signOut, operatorPIN: "2468")])
        #expect(state.dialog == nil)
        _ = state.reduce(.acted(signOut, .done(aside: nil)))
        #expect(state.message?.text == "Signed Ada Lovelace out of lab-1/tty1.")
        // Kept: the next action asks only whether.
        F.press(.down, .down, .character("r"), on: &state)
        #expect(state.dialog == .confirm(.resetPIN(F.grace, name: "Grace Hopper")))
        F.press(.character("n"), on: &state)
        #expect(state.dialog == nil)
        // Forgotten once the board was idle for the stations' idle timeout.
        _ = state.reduce(.tick(F.now.advanced(by: 121)))
        #expect(!state.isUnlocked)
        F.press(.character("r"), on: &state)
        #expect(state.dialog == .pin(PINField(), then: .resetPIN(F.grace, name: "Grace Hopper")))
        F.press(.escape, on: &state)
        #expect(state.dialog == nil)
    }

    @Test("x reads the person's identities and asks which one to disconnect (none to choose when there is one); each asks first, with the PIN kept")
    func disconnectAnIdentity() {
        var state = F.state()
        let github = LinkedIdentity(identity: Identity(provider: "github", subject: "1815"), email: "ada@example.org")
        let demo = LinkedIdentity(identity: Identity(provider: "demo", subject: "ada"), displayName: "Ada Lovelace")
        #expect(F.press(.character("x"), on: &state) == [.loadIdentities(F.ada, name: "Ada Lovelace", station: "lab-1/tty1")])
        #expect(state.dialog == nil)
        _ = state.reduce(.identitiesLoaded([github, demo], of: F.ada, name: "Ada Lovelace", station: "lab-1/tty1"))
        #expect(state.dialog == .chooseIdentity(account: F.ada, name: "Ada Lovelace", identities: [github, demo], selection: 0))
        #expect(state.keyBar.map(\.label) == ["choose", "back"])
        F.press(.down, .down, on: &state)
        #expect(state.dialog == .chooseIdentity(account: F.ada, name: "Ada Lovelace", identities: [github, demo], selection: 1))
        F.press(.enter, on: &state)
        let action = OperatorAction.disconnect(demo, of: F.ada, name: "Ada Lovelace", isLast: false)
        #expect(state.dialog == .pin(PINField(), then: action))
        #expect(action.question == "Disconnect Ada Lovelace's demo identity (demo:ada) everywhere?")
        #expect(action.consequence.hasSuffix("The account keeps its other identities."))
        F.type("2468", on: &state)
        #expect(F.press(.enter, on: &state) == [.checkOperatorPIN("2468", then: action)])
        _ = state.reduce(.pinChecked(digits: "2468", then: action, check: .accepted, problem: nil))
        #expect(F.press(.character("y"), on: &state) == [.perform(action, operatorPIN: "2468")])
        _ = state.reduce(.acted(action, .done(aside: nil)))
        #expect(state.message?.text == "Ada Lovelace's demo identity is disconnected everywhere.")
        // What the provider said of revoking comes after, as a notice; a refusal other than the PIN's keeps the PIN.
        _ = state.reduce(.notice("demo.test revoked its access.", isError: false))
        #expect(state.message?.text == "demo.test revoked its access." && state.isUnlocked)
        _ = state.reduce(.acted(action, .refused("Identity demo:ada not found.", pinRefused: false)))
        #expect(state.message?.isError == true && state.isUnlocked)

        // One identity: nothing to choose, only the question (the PIN is kept), which says the account goes too.
        F.press(.down, .down, on: &state)
        #expect(F.press(.character("x"), on: &state) == [.loadIdentities(F.grace, name: "Grace Hopper", station: "lab-3/tty1")])
        let grace = LinkedIdentity(identity: Identity(provider: "demo", subject: "grace"), email: "grace@example.org")
        _ = state.reduce(.identitiesLoaded([grace], of: F.grace, name: "Grace Hopper", station: "lab-3/tty1"))
        #expect(state.dialog == .confirm(.disconnect(grace, of: F.grace, name: "Grace Hopper", isLast: true)))
        #expect(OperatorAction.disconnect(grace, of: F.grace, name: "Grace Hopper", isLast: true).consequence.contains("the account goes too"))
        F.press(.escape, on: &state)
        // Identities read for a station no longer selected, or an account already gone, open nothing.
        F.press(.up, on: &state)
        _ = state.reduce(.identitiesLoaded([grace], of: F.grace, name: "Grace Hopper", station: "lab-3/tty1"))
        #expect(state.dialog == nil)
        F.press(.down, on: &state)
        _ = state.reduce(.identitiesLoaded([], of: F.grace, name: "Grace Hopper", station: "lab-3/tty1"))
        #expect(state.dialog == nil && state.message?.text == "Grace Hopper has no identity left to disconnect.")
    }

    @Test("a message too long for its room in the status bar takes the session's and the clock's room while it shows, whole")
    func messageRoom() {
        var state = F.state(size: Size(width: 60, height: 16))
        F.press(.down, .character("o"), on: &state)
        let bar = BoardScreen.draw(state).lines[0]
        #expect(bar.contains("Nobody is signed in at this station.") && !bar.contains("⌂"), "\(bar)")
        state.message = nil
        #expect(BoardScreen.draw(state).lines[0].contains("⌂ ops/pts/1"))
    }

    @Test("an action with nobody to act on says why and opens nothing; a locked-out station's reset is for the account its wrong PIN was for")
    func unavailable() {
        var state = F.state()
        F.press(.down, .character("o"), on: &state)
        #expect(state.dialog == nil && state.message?.text == "Nobody is signed in at this station.")
        #expect(state.keyBar.first { $0.label == "sign out" }?.available == false)
        F.press(.down, .down, .down, on: &state)
        #expect(state.selectedStation?.key == "lab-5/tty1")
        _ = state.reduce(.eventsLoaded(F.events, of: "lab-5/tty1"))
        F.press(.character("r"), on: &state)
        #expect(state.dialog == .pin(PINField(), then: .resetPIN(F.grace, name: "Grace Hopper")))
        F.press(.escape, on: &state)
        // With the store away, nothing is offered that writes to it.
        _ = state.reduce(.storeOffline("connection refused"))
        F.press(.home, .character("o"), on: &state)
        #expect(state.dialog == nil && state.message?.text == Unavailable.offline.reason)
        // A refused action forgets the PIN.
        _ = state.reduce(.storeOffline(nil))
        _ = state.reduce(.acted(.resetPIN(F.grace, name: "Grace Hopper"), .refused("The operator PIN is locked.", pinRefused: true)))
        #expect(state.message?.isError == true && !state.isUnlocked)
    }

    @Test("help opens on ?, scrolls, closes; a resize keeps the selection shown; a click selects a row; q quits")
    func screen() throws {
        var state = F.state(size: Size(width: 80, height: 24))
        F.press(.character("?"), on: &state)
        #expect(state.dialog == .help(scroll: 0))
        F.press(.down, on: &state)
        #expect(state.dialog == .help(scroll: 1))
        F.press(.character("q"), on: &state)
        #expect(state.dialog == nil && state.isRunning)
        F.press(.end, on: &state)
        _ = state.reduce(.input(.resize(Size(width: 60, height: 16))))
        let layout = try #require(BoardLayout(state.size))
        #expect(state.selection == 5 && state.scroll + layout.rowsShown > 5)
        let rows = try #require(BoardLayout(Size(width: 80, height: 24))).rows
        _ = state.reduce(.input(.resize(Size(width: 80, height: 24))))
        F.press(.home, on: &state)
        _ = state.reduce(.input(.mouse(MouseEvent(x: rows.x + 3, y: rows.y + 2, kind: .press))))
        #expect(state.selectedStation?.key == "lab-3/tty1")
        _ = state.reduce(.input(.mouse(MouseEvent(x: rows.x + 3, y: rows.y, kind: .scrollDown))))
        #expect(state.selectedStation?.key == "lab-4/tty1")
        #expect(F.press(.character("q"), on: &state) == [.quit] && !state.isRunning)
    }
}

/// The board's panes as golden text.
@Suite("the operator's board: snapshots")
struct BoardSnapshotTests {
    typealias F = BoardFixture
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

    static func selected(size: Size) -> BoardState {
        var state = F.state(size: size)
        _ = state.reduce(.eventsLoaded(F.events, of: "lab-1/tty1"))
        return state
    }

    @Test("the board: every state, the first station's events", arguments: sizes)
    func board(size: Size) {
        Snapshot.check(BoardScreen.draw(Self.selected(size: size)), "board-\(size.width)x\(size.height)")
    }

    @Test("a station whose clock is off says so above its events")
    func clockOff() {
        var state = F.state(size: Size(width: 80, height: 24), stations: [F.station("lab-1", who: (F.ada, "Ada Lovelace"), clockOff: 61.4)])
        _ = state.reduce(.eventsLoaded(F.events, of: "lab-1/tty1"))
        Snapshot.check(BoardScreen.draw(state), "board-clock-80x24")
    }

    @Test("the board filtered, and at the smallest size")
    func filtered() {
        var state = Self.selected(size: Size(width: 60, height: 16))
        F.press(.character("/"), on: &state)
        F.type("lab-1", on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-filter-60x16")
        F.type("x", on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-filter-empty-60x16")
    }

    @Test("at 60×16 every cut ends in …: the fleet's counts in the status bar and the detail pane's lines")
    func cutsEndInEllipsis() throws {
        let state = Self.selected(size: Size(width: 60, height: 16))
        let buffer = BoardScreen.draw(state)
        let layout = try #require(BoardLayout(state.size))
        // The status bar: the counts, cut before the operator's session, end in "…".
        let bar = buffer.lines[0]
        let counts = try #require(bar.range(of: "⌂")).lowerBound
        #expect(bar[..<counts].trimmingCharacters(in: .whitespaces).hasSuffix("…"), "\(bar)")
        // Each line inside the detail pane ends blank or in "…", never in the middle of a word.
        let inner = layout.detail.inset()
        for y in inner.y..<inner.maxY {
            let last = buffer[inner.maxX - 1, y].symbol
            #expect(last == " " || last == "…", "row \(y): \(buffer.lines[y])")
        }
        Snapshot.check(buffer, "board-cuts-60x16")
    }

    @Test("the board's help, the operator PIN, the identity to disconnect and the question before an action")
    func dialogs() {
        var state = Self.selected(size: Size(width: 80, height: 24))
        F.press(.character("?"), on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-help-80x24")
        F.press(.escape, .character("o"), on: &state)
        F.type("12", on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-pin-80x24")
        let signOut = OperatorAction.signOut(session: "lab-1/tty1", who: "Ada Lovelace")
        F.type("34", on: &state)
        F.press(.enter, on: &state)
        _ = state.reduce(.pinChecked(digits: "1234", then: signOut, check: .accepted, problem: nil))
        Snapshot.check(BoardScreen.draw(state), "board-confirm-80x24")
        F.press(.escape, on: &state)
        let identities = [
            LinkedIdentity(identity: Identity(provider: "github", subject: "1815"), email: "ada@example.org"),
            LinkedIdentity(identity: Identity(provider: "demo", subject: "ada"), displayName: "Ada Lovelace"),
        ]
        _ = state.reduce(.identitiesLoaded(identities, of: F.ada, name: "Ada Lovelace", station: "lab-1/tty1"))
        F.press(.down, on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-choose-identity-80x24")
        F.press(.enter, on: &state)
        Snapshot.check(BoardScreen.draw(state), "board-confirm-disconnect-80x24")
    }

    @Test("an empty fleet, and a terminal too small")
    func empty() {
        Snapshot.check(BoardScreen.draw(F.state(size: Size(width: 80, height: 24), stations: [])), "board-empty-80x24")
        Snapshot.check(BoardScreen.draw(F.state(size: Size(width: 40, height: 10))), "board-too-small-40x10")
    }
}
