import Foundation
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The tour layer in the reducer, on a clock moved by hand: what it presses
/// and asks, when, and how a person takes the chooser and gives it back.
@Suite("demo tour: the tour layer")
struct TourTests {
    static let size = Size(width: 100, height: 30)
    static let start = Moment(secondsSince1970: 1_800_000_000)
    static let providers = [ProviderChoice(id: "demo", name: "Demo"), ProviderChoice(id: "demo-lab", name: "Demo Lab")]

    /// A chooser on tour with beats of one second and `idle` seconds to wait for a person.
    static func touring(idle: Double = 30) -> Tour {
        let chooser = AppState(session: SessionKey("pts/1")!, size: size, now: start, guide: Fixture.guide, theme: .builtIn, providers: providers)
        var state = Tour(chooser, tour: TourState(script: TourState.script(first: "demo", second: "demo-lab", expiry: 4), beat: 1, idle: idle))
        _ = state.reduce(.loaded(AccountList([], protected: []), active: .anonymous))
        return state
    }

    /// A tick at `seconds` after the start.
    static func tick(_ state: inout Tour, _ seconds: Double) -> [TourEffect] {
        state.reduce(.tick(start.advanced(by: seconds)))
    }

    static func requests(_ effects: [TourEffect]) -> [(TourRequest, Int)] {
        effects.compactMap { if case .request(let request, let id) = $0 { (request, id) } else { nil } }
    }

    static func code(_ userCode: String, at seconds: Double) -> WaitingCode {
        WaitingCode(userCode: userCode, verificationURI: "http://127.0.0.1:8628/device", completeURI: nil,
                    expiresAt: start.advanced(by: seconds + 600), interval: 1, demoServer: nil, qrRows: [])
    }

    @Test("step 1, beat by beat: settings, a, Demo, the code, i, three beats, approval by API, the ending, three beats, Enter")
    func firstStep() throws {
        var state = Self.touring()
        #expect(state.caption?.hasPrefix("1/8 · Approved") == true && state.hint == "any key: your turn")
        #expect(state.nextDeadline == Self.start, "the script is looked at at once")
        var effects = Self.tick(&state, 0)
        let (settings, first) = try #require(Self.requests(effects).first)
        #expect(settings == .settings(expiresIn: 600, interval: 1, slowDownPolls: 0))
        #expect(state.nextDeadline == nil, "nothing happens until the provider answers")
        _ = state.reduce(.answered(id: first, problem: nil))
        effects = Self.tick(&state, 0.1)
        guard case .signIn(let dialog) = state.dialog, case .choosing = dialog.phase else { Issue.record("a did not open the dialog"); return }
        #expect(effects.isEmpty && state.nextDeadline == Self.start.advanced(by: 1.1), "a beat to read the provider list")
        effects = Self.tick(&state, 1.1)
        #expect(effects == [.chooser(.startSignIn("demo", .signIn))])
        _ = state.reduce(.codeReady(Self.code("WDJB-MJHT", at: 1.2)))
        effects = Self.tick(&state, 1.25)
        #expect(state.inspectorShown, "the tour opens the inspector")
        #expect(state.nextDeadline == Self.start.advanced(by: 4.25), "three beats on the code")
        #expect(Self.requests(Self.tick(&state, 4.2)).isEmpty)
        effects = Self.tick(&state, 4.25)
        let (approval, id) = try #require(Self.requests(effects).first)
        #expect(approval == .approve(userCode: "WDJB-MJHT", person: "ada"))
        _ = state.reduce(.answered(id: id, problem: nil))
        _ = Self.tick(&state, 4.3)
        _ = state.reduce(.signInEnded(SignInEnding(outcome: .approved(AccountID(1), isNew: true), accountName: "Ada Lovelace", isNew: true), conflict: nil))
        _ = Self.tick(&state, 5.3)
        #expect(state.dialog != nil && state.nextDeadline == Self.start.advanced(by: 8.3), "three beats on the welcome")
        _ = Self.tick(&state, 8.3)
        #expect(state.dialog == nil, "Enter closed it")
        _ = Self.tick(&state, 9.3)
        #expect(state.caption?.hasPrefix("2/8 · Denied") == true)
    }

    @Test("any key hands the chooser to the person and does nothing else; after the idle time the tour starts again in an empty store")
    func takeOverAndResume() throws {
        var state = Self.touring(idle: 30)
        let (_, settings) = try #require(Self.requests(Self.tick(&state, 0)).first)
        _ = state.reduce(.answered(id: settings, problem: nil))
        _ = Self.tick(&state, 0.1)
        _ = Self.tick(&state, 1.1)
        _ = state.reduce(.codeReady(Self.code("WDJB-MJHT", at: 1.2)))
        _ = Self.tick(&state, 1.5)
        // The person presses q: it takes over, and quits nothing.
        #expect(state.reduce(.input(.key(.character("q"))), at: Self.start.advanced(by: 2)).isEmpty)
        #expect(state.isRunning && state.tour.mode == .person(lastInput: Self.start.advanced(by: 2)))
        #expect(state.caption?.hasPrefix("Your turn") == true && state.hint == "the tour goes on after 30 s without a key")
        // The tour's moves stop: no approval at its time.
        #expect(Self.requests(Self.tick(&state, 4.25)).isEmpty)
        // Now keys are the person's: Esc cancels the sign-in the tour began.
        #expect(state.reduce(.input(.key(.escape)), at: Self.start.advanced(by: 10)) == [.chooser(.cancelSignIn)])
        _ = state.reduce(.input(.key(.character("a"))), at: Self.start.advanced(by: 12))
        #expect(state.nextDeadline == Self.start.advanced(by: 42), "30 s after the last key")
        // A resize is nobody's key.
        _ = state.reduce(.input(.resize(Size(width: 120, height: 40))), at: Self.start.advanced(by: 20))
        #expect(Self.tick(&state, 41.9).isEmpty)
        let effects = Self.tick(&state, 42)
        #expect(effects.contains(.chooser(.cancelSignIn)) == false, "the person's dialog was only the provider list")
        let (fresh, id) = try #require(Self.requests(effects).first)
        #expect(fresh == .freshStore)
        #expect(state.dialog == nil && state.tour.mode == .touring && state.tour.round == 2)
        #expect(state.caption?.hasPrefix("1/8") == true)
        _ = state.reduce(.loaded(AccountList([], protected: []), active: .anonymous))
        _ = state.reduce(.answered(id: id, problem: nil))
        let (again, _) = try #require(Self.requests(Self.tick(&state, 42.1)).first)
        #expect(again == .settings(expiresIn: 600, interval: 1, slowDownPolls: 0), "from its first move")
    }

    @Test("in a terminal too small to show the chooser the tour waits, and goes on once it is large enough")
    func tooSmall() {
        var state = Self.touring()
        _ = state.reduce(.input(.resize(Size(width: 50, height: 12))))
        #expect(Self.tick(&state, 0).isEmpty && state.tour.step == 0 && state.tour.move == 0)
        #expect(state.nextDeadline == nil, "no ticks while it waits")
        _ = state.reduce(.input(.resize(Self.size)))
        #expect(Self.requests(Self.tick(&state, 0.1)).first?.0 == .settings(expiresIn: 600, interval: 1, slowDownPolls: 0))
    }

    @Test("Ctrl-C quits even while the tour has the chooser")
    func controlCQuits() {
        var state = Self.touring()
        #expect(state.reduce(.input(.key(.control("c"))), at: Self.start).contains(.chooser(.quit)))
        #expect(!state.isRunning)
    }

    @Test("a wait that never ends, or a request the provider refuses, starts the tour again with the reason; an empty store refused stops it")
    func losingItsWay() throws {
        var state = Self.touring()
        let (_, settings) = try #require(Self.requests(Self.tick(&state, 0)).first)
        _ = state.reduce(.answered(id: settings, problem: nil))
        _ = Self.tick(&state, 0.1)
        _ = Self.tick(&state, 1.1)  // Enter on Demo: the code is asked for, and never comes
        #expect(state.nextDeadline == Self.start.advanced(by: 1.1 + TourState.waitLimit))
        #expect(Self.tick(&state, 1.1 + TourState.waitLimit - 0.01).isEmpty)
        var effects = Self.tick(&state, 1.1 + TourState.waitLimit)
        #expect(effects.contains(.chooser(.cancelSignIn)))
        var (fresh, id) = try #require(Self.requests(effects).first)
        #expect(fresh == .freshStore && state.caption == "The tour starts again: waited 60 s for a code")
        _ = state.reduce(.answered(id: id, problem: nil))
        // The provider refuses the settings.
        let (_, again) = try #require(Self.requests(Self.tick(&state, 70)).first)
        effects = state.reduce(.answered(id: again, problem: "the demo provider refused the settings (HTTP 400)"))
        (fresh, id) = try #require(Self.requests(effects).first)
        #expect(state.caption == "The tour starts again: the demo provider refused the settings (HTTP 400)")
        // And no empty store can be made: the tour stops; the chooser is the person's.
        #expect(state.reduce(.answered(id: id, problem: "no empty store: disk full")).isEmpty)
        #expect(state.caption?.hasPrefix("The tour has stopped") == true && state.hint == nil)
        #expect(state.nextDeadline == state.toasts.last?.expiresAt, "no more moves, only the toast's end")
        #expect(state.toasts.contains { $0.text == "The tour stopped: no empty store: disk full" })
    }

    @Test("the caption line sits above the key bar, and dialogs and the inspector above it")
    func captionLayout() {
        var state = Self.touring()
        var rows = TourScreen.draw(state).lines
        #expect(rows[28].hasPrefix(" 1/8 · Approved") && rows[28].hasSuffix("any key: your turn"))
        // x takes over; then a, Enter on Demo, i.
        _ = Fixture.press(.character("x"), .character("a"), .enter, .character("i"), on: &state)
        rows = TourScreen.draw(state).lines
        #expect(rows[28].hasPrefix(" Your turn") && rows[28].hasSuffix("the tour goes on after 30 s without a key"))
        #expect(state.inspectorArea.map { $0.maxY } == 28)
        #expect(rows[27].hasPrefix("└") && rows[29].contains("esc cancel"))
    }
}
