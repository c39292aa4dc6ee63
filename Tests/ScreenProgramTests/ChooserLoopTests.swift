import DemoProvider
import DeviceFlow
import Foundation
import StationConfig
import Store
import Testing
import TestSupport
import TestBasics
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The UI loop against a real store, bus and demo provider over loopback.
@MainActor
final class LoopRig {
    let rig: AppRig
    let loop: ChooserLoop<AppState>
    let session = SessionKey("pts/1")!

    init(render: @escaping @MainActor (AppState) -> Void = { _ in }) async throws {
        // Real time: polls a second apart, and the demo provider's clock
        // starts now, as the loop checks the id_token on the system clock.
        rig = try await AppRig(interval: 1, start: Date())
        let state = AppState(session: session, size: Size(width: 100, height: 30), now: Moment.now(), guide: Fixture.guide, theme: .builtIn,
                             providers: [ProviderChoice(id: "demo", name: "Demo")])
        loop = ChooserLoop(
            state: state,
            environment: ChooserEnvironment(
                database: rig.database, bus: rig.bus, providers: rig.providers, clock: SystemFlowClock(),
                copy: { _ in }, open: { _ in },
                nextTheme: { _ in (Theme.monochrome, nil) }),
            render: render)

    }

    /// Waits until `condition` holds for the loop's state.
    func wait(_ what: String, _ condition: (AppState) -> Bool) async throws {
        try await waitUntil(what) { condition(loop.state) }
    }

    func press(_ keys: Key...) { for key in keys { loop.send(.input(.key(key))) } }

}

/// Runs `body`, then awaits `rig`'s stop, however `body` ends.
@MainActor
func stopping(_ rig: AppRig, _ body: () async throws -> Void) async throws {
    do { try await body() } catch {
        await rig.stop()
        throw error
    }
    await rig.stop()
}

/// The code a sign-in dialog shows while it waits for approval, if it does.
@MainActor
func waitingCode(_ state: AppState) -> WaitingCode? {
    if case .signIn(let dialog) = state.dialog, case .waiting(let code) = dialog.phase { code } else { nil }
}

@Suite("The UI loop, end to end in-process")
@MainActor
struct ChooserLoopTests {
    @Test("the first frame shows what the store holds: the active person, their favourite first, how many accounts")
    func firstFrame() async throws {
        let rig = try await AppRig(interval: 1)
        try await stopping(rig) {
            let session = SessionKey("pts/1")!
            // More accounts than rows.
            let people = (0..<34).map { index in
                LinkedIdentity(
                    identity: Identity(provider: index % 3 == 0 ? "github" : "demo", subject: "person-\(index)"), displayName: "Person \(index)",
                    email: "person\(index)@example.org", emailVerified: true, state: index % 5 == 0 ? .expired : .authorized)
            }
            let ids = try Sample.signIn(people, into: rig.database, session: session)
            let favourite = Fixture.guide.shows.last!
            try rig.database.setFavourite(favourite.id, starred: true, for: ids.last!)
            let environment = ["HOME": rig.folder.path]
            let size = Size(width: 100, height: 30)

            var frames: [Buffer] = []
            let state = AppState.opening(
                session: session, size: size, now: Moment.now(), guide: Fixture.guide,
                selection: ThemeSelection.chooser(flag: nil, configured: nil, environment: environment), colors: 256,
                providers: [ProviderChoice(id: "demo", name: "Demo")])
            let loop = ChooserLoop(
                state: state,
                environment: ChooserEnvironment(
                    database: rig.database, bus: rig.bus, providers: rig.providers, clock: SystemFlowClock(), copy: { _ in }, open: { _ in },
                    nextTheme: { _ in (Theme.monochrome, nil) }),
                render: { frames.append(Screen.draw($0)) })
            try await loop.startSettled()
            let first = try #require(frames.first)
            #expect(first.text.contains("● Person 33") && first.text.contains("\(people.count) accounts"))
            // The favourites are a read of their own after the first (in the first frame when the store answers
            // within the frame's hold; on a loaded machine in the next).
            func favouriteFirst(_ frame: Buffer) -> Bool {
                let guideRows = frame.lines.filter { $0.contains(favourite.title) || $0.contains(Fixture.guide.shows.first!.title) }
                return guideRows.first?.contains(favourite.title) == true
            }
            try await waitUntil("the favourite listed first") {
                loop.flush()
                return frames.contains(where: favouriteFirst)
            }
        }
    }

    @Test("a sign-in through the dialog: code, approval on the demo server, welcome; status bar and guide follow the bus")
    func signInThroughTheDialog() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            try await t.loop.startSettled()
            #expect(t.loop.state.active == .anonymous)
            t.press(.character("a"), .enter)
            try await t.wait("the code") { state in
                if case .signIn(let dialog) = state.dialog, case .waiting = dialog.phase { return true }
                return false
            }
            let code = try #require(waitingCode(t.loop.state))
            #expect(code.demoServer != nil && !code.qrRows.isEmpty)
            try await t.rig.server.approve(userCode: code.userCode, as: "grace")
            try await t.wait("the welcome, and the accounts read again at the end of that turn") { state in
                if case .signIn(let dialog) = state.dialog, case .finished = dialog.phase { return state.accounts.list.count == 1 }
                return false
            }
            #expect(t.loop.state.active.account?.name == "Grace Hopper")
            #expect(Screen.draw(t.loop.state).text.contains("Tonight for Grace Hopper"))
            let frame = Screen.draw(t.loop.state).text
            #expect(frame.contains("Welcome, Grace Hopper!"))
            #expect(frame.contains("● Grace Hopper"))
            // Every sign-in is traced: i shows its exchanges, from discovery to the id_token's claims.
            t.press(.character("i"))
            try await t.wait("the inspector, and the id_token's claims in it") { state in
                guard state.inspectorShown, case .signIn(let dialog) = state.dialog else { return false }
                return dialog.trace.last?.step == "id_token"
            }
            guard case .signIn(let traced) = t.loop.state.dialog else { return }
            #expect(traced.trace.first?.step == "discovery" && traced.trace.contains { $0.step == "device authorization" })
            #expect(traced.trace.contains { $0.step.hasPrefix("poll") && $0.result == "OK: tokens" })
            let inspected = Screen.draw(t.loop.state).text
            #expect(inspected.contains("Inspector · each exchange with Demo") && inspected.contains("name=Grace Hopper"))
        }
    }

    @Test("the guide pane changes only through the bus: a status change published elsewhere redraws it")
    func guideFollowsTheBus() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let ada = try Sample.signIn([Sample.adaGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)[0]
            try t.rig.database.setFavourite("sky", starred: true, for: ada)
            try await t.loop.startSettled()
            #expect(t.loop.state.active == .anonymous)
            // Someone else (another component) switches this session and announces it.
            let change = try t.rig.database.switchAccount(to: ada, session: t.session)
            t.rig.bus.publish(change)
            try await t.wait("the guide for Ada, with her stars") { $0.active.id == ada && !$0.guide.favourites.isEmpty }
            #expect(t.loop.state.guide.favourites == ["sky"])
            #expect(t.loop.state.guide.shows.first?.id == "sky")
            #expect(t.loop.state.active.id == ada)
        }
    }

    @Test("a switch to an account with a PIN: the dialog asks, a wrong PIN is counted and refused, the right one switches")
    func switchWithPIN() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)
            try t.rig.database.setPIN("2468", for: .account(ids[1]), proof: nil)
            try await t.loop.startSettled()
            #expect(t.loop.state.accounts.list.protected == [ids[1]])
            let graceRow = t.loop.state.accounts.itemIndex(of: ids[1])!
            for _ in 0..<graceRow { t.press(.down) }
            t.press(.enter, .character("1"), .character("3"), .character("5"), .character("7"), .enter)
            try await t.wait("the wrong PIN refused") { if case .pin(let pin) = $0.dialog { pin.field.wasWrong } else { false } }
            #expect(try t.rig.database.pinAttempts(of: .account(ids[1])).failures == 1)
            #expect(try t.rig.database.active(in: t.session) == .anonymous)
            t.press(.character("2"), .character("4"), .character("6"), .character("8"), .enter)
            try await t.wait("Grace active") { $0.active.id == ids[1] && $0.dialog == nil }
            #expect(try t.rig.database.pinAttempts(of: .account(ids[1])).failures == 0)
        }
    }

    @Test("disconnecting an identity of an account with a PIN: the PIN dialog asks, a wrong PIN is counted and nothing goes, the right one disconnects")
    func disconnectWithPIN() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)
            try t.rig.database.setPIN("2468", for: .account(ids[1]), proof: nil)
            try await t.loop.startSettled()
            let graceRow = try #require(t.loop.state.accounts.itemIndex(of: ids[1]))
            for _ in 0..<graceRow { t.press(.down) }
            t.press(.character("d"), .enter)
            try await t.wait("the PIN dialog") { if case .pin(let pin) = $0.dialog { pin.account?.id == ids[1] } else { false } }
            t.press(.character("1"), .character("3"), .character("5"), .character("7"), .enter)
            try await t.wait("the wrong PIN refused") { if case .pin(let pin) = $0.dialog { pin.field.wasWrong } else { false } }
            #expect(try t.rig.database.pinAttempts(of: .account(ids[1])).failures == 1)
            #expect(try t.rig.database.account(ids[1])?.identities.count == 1, "a wrong PIN disconnects nothing")
            t.press(.character("2"), .character("4"), .character("6"), .character("8"), .enter)
            try await t.wait("Grace gone") { state in state.dialog == nil && !state.accounts.list.accounts.contains { $0.id == ids[1] } }
            #expect(try t.rig.database.account(ids[1]) == nil)
            #expect(try t.rig.database.account(ids[0]) != nil)
        }
    }

    @Test("in the plain chooser too, a sign-in that lands on an account with a PIN makes nobody active; the PIN dialog opens and the PIN switches")
    func signInToProtectedAccount() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let demoAda = LinkedIdentity(identity: Identity(provider: "demo", subject: "1815"), displayName: "Ada Lovelace", email: nil)
            let ada = try Sample.signIn([demoAda], into: t.rig.database, session: SessionKey("setup")!)[0]
            try t.rig.database.setPIN("2468", for: .account(ada), proof: nil)
            try await t.loop.startSettled()
            // Demo, then past "continue as Ada" (which would be a switch) to a new code.
            t.press(.character("a"), .enter)
            // Whom the sign-in may continue as is read off the main actor: the choice shows, then the keys for it.
            try await t.wait("the continue-as choice") { if case .signIn(let dialog) = $0.dialog, case .continuing = dialog.phase { true } else { false } }
            t.press(.down, .enter)
            try await t.wait("the code") { if case .signIn(let dialog) = $0.dialog, case .waiting = dialog.phase { true } else { false } }
            let code = try #require(waitingCode(t.loop.state))
            try await t.rig.server.approve(userCode: code.userCode, as: "ada")
            try await t.wait("the PIN dialog") { if case .pin(let pin) = $0.dialog { pin.account?.id == ada } else { false } }
            #expect(try t.rig.database.active(in: t.session) == .anonymous)
            t.press(.character("2"), .character("4"), .character("6"), .character("8"), .enter)
            try await t.wait("Ada active") { $0.active.id == ada && $0.dialog == nil }
            #expect(try t.rig.database.active(in: t.session).id == ada)
        }
    }

    @Test("a PIN set after the list was read: the switch is refused by the store and the dialog opens")
    func pinSetMeanwhile() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)
            try await t.loop.startSettled()
            try t.rig.database.setPIN("2468", for: .account(ids[0]), proof: nil)
            let adaRow = t.loop.state.accounts.itemIndex(of: ids[0])!
            for _ in 0..<adaRow { t.press(.down) }
            t.press(.enter)
            try await t.wait("the PIN dialog") { if case .pin(let pin) = $0.dialog { pin.account?.id == ids[0] } else { false } }
            try await t.wait("the lock mark") { $0.accounts.list.protected == [ids[0]] }
            #expect(try t.rig.database.active(in: t.session) == .anonymous)
        }
    }

    @Test("a switch in the chooser: the person active and first, their stars in the guide; the screen settles on it and stays")
    func switchInOneFrame() async throws {
        var frames: [Buffer] = []
        let t = try await LoopRig(render: { frames.append(Screen.draw($0)) })
        try await stopping(t.rig) {
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)
            let star = Fixture.guide.shows.last!
            try t.rig.database.setFavourite(star.id, starred: true, for: ids[0])
            try await t.loop.startSettled()
            // Grace was used last, so Ada is second.
            let adaRow = t.loop.state.accounts.itemIndex(of: ids[0])!
            #expect(adaRow > 0)
            for _ in 0..<adaRow { t.press(.down) }
            t.loop.flush()
            frames.removeAll()
            t.press(.enter)
            // The switch is written off the main actor, then the list and her stars read again; a frame waits a moment for
            // each answer, so a quick store shows them together (on a loaded machine a frame may come between).
            #expect(frames.isEmpty)
            try await t.wait("the switch, the list and the stars answered") { state in
                !t.loop.link.isBusy && state.active.id == ids[0] && state.accounts.list.accounts.first?.id == ids[0] && !state.guide.favourites.isEmpty
            }
            t.loop.flush()
            let last = frames.last?.text
            frames.removeAll { $0.text != last }
            let first = frames[0].text
            #expect(first.contains("● Ada Lovelace") && first.contains("Tonight for Ada Lovelace"), "\(first)")
            let listed = frames[0].lines.compactMap { line in ["Ada Lovelace", "Grace Hopper"].first { line.contains("│ ▸ " + $0) || line.contains("│   " + $0) } }
            #expect(listed.first == "Ada Lovelace", "\(listed)")
            #expect(frames[0].lines.first { $0.contains(star.title) }?.contains("★") == true)
            #expect(t.loop.state.accounts.list.accounts.map(\.id) == [ids[0], ids[1]])
            // Frames drawn since, up to the search index read again after the switch, show the same screen.
            try await t.wait("the search index") { $0.accounts.list.index != nil }
            t.loop.flush()
            #expect(frames.count > 1 && frames.allSatisfy { $0.text == first }, "\(frames.count) frames")
        }
    }

    @Test("switch, star, sign out: each a store write announced on the bus")
    func switchStarSignOut() async throws {
        let t = try await LoopRig()
        try await stopping(t.rig) {
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: t.rig.database, session: SessionKey("elsewhere")!)
            try await t.loop.startSettled()
            let graceRow = t.loop.state.accounts.itemIndex(of: ids[1])!
            for _ in 0..<graceRow { t.press(.down) }
            t.press(.enter)
            try await t.wait("Grace active") { $0.active.id == ids[1] }
            #expect(try t.rig.database.active(in: t.session).id == ids[1])
            t.press(.tab, .character("f"))
            try await t.wait("a star") { !$0.guide.favourites.isEmpty }
            #expect(try t.rig.database.favourites(of: ids[1]) == [Fixture.guide.ordered(favourites: []).first!.id])
            t.press(.character("s"))
            try await t.wait("anonymous") { $0.active == .anonymous && $0.guide.favourites.isEmpty }
            #expect(try t.rig.database.active(in: t.session) == .anonymous)
        }
    }

    @Test("on start, the active person's credentials are re-checked; a revocation signs out with a toast naming whose and which provider")
    func revokedOnStart() async throws {
        // Who each frame showed active: the first one Ada, before the check came back.
        let shown = Recorder<String?>()
        let t = try await LoopRig(render: { shown.add($0.active.account?.name) })
        try await stopping(t.rig) {
            let (_, ada) = try await t.rig.signIn(as: "ada", session: t.session)
            let identity = try #require(ada.account?.identities.first?.identity)
            let tokens = try #require(try t.rig.database.credential(for: identity))
            try await TokenClient(client: ClientCredentials(clientID: "switchboard-demo"), transport: t.rig.transport)
                .revoke(tokens.refreshToken!, hint: "refresh_token", at: t.rig.base.appendingPathComponent("revoke"))
            try await t.loop.startSettled()
            #expect(shown.all.first == "Ada Lovelace")
            // The accounts are read again at the end of the sign-out's turn; the list read may come before the sign-out's own news.
            try await t.wait("the sign-out, said") {
                $0.active == .anonymous && $0.accounts.list.accounts.first?.identities.first?.state == .revoked
                    && $0.toasts.map(\.text).contains("Ada Lovelace was signed out: demo revoked the token.")
            }
        }
    }

    @Test("t t t pressed quickly moves three themes on, each named in a toast with how to keep it")
    func quickThemes() async throws {
        let rig = try await AppRig(interval: 1, start: Date())
        try await stopping(rig) {
            let state = AppState(session: SessionKey("pts/7")!, size: Size(width: 100, height: 30), now: Moment.now(), guide: Fixture.guide,
                                 theme: .builtIn, providers: [])
            let loop = ChooserLoop(
                state: state,
                environment: ChooserEnvironment(
                    database: rig.database, bus: rig.bus, providers: rig.providers, copy: { _ in }, open: { _ in },
                    nextTheme: { current in (Theme(name: Theme.builtInName(after: current), styles: [:]), nil) }),
                render: { _ in })
            try await loop.startSettled()
            defer { loop.send(.terminate) }
            for _ in 0..<3 { loop.send(.input(.key(.character("t")))) }
            // default → light → high-contrast → monochrome.
            #expect(loop.state.theme.name == "monochrome")
            #expect(loop.state.toasts.last?.text == "Theme monochrome: theme = \"monochrome\" in config.toml keeps it.")
        }
    }
}

/// A station's hand-off through the loop, with the command stood in for.
@Suite("The UI loop at a station")
@MainActor
struct StationLoopTests {
    /// Who the stand-in command ran as, and whether it was ended early.
    final class HandOffs {
        var ran: [AccountID] = []
        var cancelled = false
    }

    func station(_ rig: AppRig, handOffs: HandOffs) -> ChooserLoop<Station> {
        let state = AppState(session: SessionKey("station")!, size: Size(width: 100, height: 30), now: Moment.now(), guide: Fixture.guide,
                             theme: .builtIn, providers: [ProviderChoice(id: "demo", name: "Demo")])
        return ChooserLoop(
            program: Station(state, settings: StationSettings(command: ["station-session"])),
            environment: ChooserEnvironment(
                database: rig.database, bus: rig.bus, providers: rig.providers, clock: SystemFlowClock(), copy: { _ in }, open: { _ in },
                nextTheme: { _ in (Theme.monochrome, nil) },
                handOff: { id in
                    // Runs until the loop ends it.
                    handOffs.ran.append(id)
                    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
                    handOffs.cancelled = true
                    return nil
                }),
            render: { _ in })
    }

    /// A started station, with Ada signed in elsewhere, and whom its stand-in command ran as.
    func startedStation() async throws -> (AppRig, AccountID, HandOffs, ChooserLoop<Station>) {
        let rig = try await AppRig(interval: 1, start: Date())
        let ada = try Sample.signIn([Sample.adaGitHub], into: rig.database, session: SessionKey("setup")!)[0]
        let handOffs = HandOffs()
        let loop = station(rig, handOffs: handOffs)
        try await loop.startSettled()
        return (rig, ada, handOffs, loop)
    }

    func wait(_ what: String, _ condition: () -> Bool) async throws {
        try await waitUntil(what, condition)
    }

    @Test("a person signed out from elsewhere while their command runs: the command is ended and the station is back")
    func endedFromElsewhere() async throws {
        let (rig, ada, handOffs, loop) = try await startedStation()
        try await stopping(rig) {
            let session = loop.state.session
            rig.bus.publish(try rig.database.switchAccount(to: ada, session: session))
            try await wait("the command to run") { handOffs.ran == [ada] }
            #expect(loop.program.own?.handOff == .running(ada))
            rig.bus.publish(try rig.database.signOut(session: session))
            try await wait("the command to be ended") { handOffs.cancelled }
            try await wait("the station to be back") { loop.program.own?.handOff == HandOffPhase.none }
            #expect(try rig.database.active(in: session) == .anonymous)
        }
    }

    @Test("at a station, a sign-in that lands on an account with a PIN makes nobody active and no command runs; the PIN dialog opens and the PIN switches")
    func signInToProtectedAccount() async throws {
        let (rig, _, handOffs, loop) = try await startedStation()
        try await stopping(rig) {
            let session = loop.state.session
            // The demo's Ada, who has a PIN.
            let demoAda = LinkedIdentity(identity: Identity(provider: "demo", subject: "1815"), displayName: "Ada Lovelace", email: nil)
            let ada = try Sample.signIn([demoAda], into: rig.database, session: SessionKey("setup")!)[0]
            try rig.database.setPIN("2468", for: .account(ada), proof: nil)
            loop.send(.accountsChanged(AccountsChanged(accounts: [])))
            try await wait("the lock mark") { loop.state.accounts.list.protected.contains(ada) }
            // Demo, then past "continue as Ada" (which would be a switch) to a new code.
            for key in [Key.character("a"), .enter] { loop.send(.input(.key(key))) }
            // Whom the sign-in may continue as is read off the main actor: the choice shows, then the keys for it.
            try await wait("the continue-as choice") {
                if case .signIn(let dialog) = loop.state.dialog, case .continuing = dialog.phase { true } else { false }
            }
            for key in [Key.down, .enter] { loop.send(.input(.key(key))) }
            try await wait("the code") {
                if case .signIn(let dialog) = loop.state.dialog, case .waiting = dialog.phase { true } else { false }
            }
            let code = try #require(waitingCode(loop.state))
            try await rig.server.approve(userCode: code.userCode, as: "ada")
            try await wait("the PIN dialog") { if case .pin(let pin) = loop.state.dialog { pin.account?.id == ada } else { false } }
            #expect(try rig.database.active(in: session) == .anonymous)
            #expect(handOffs.ran.isEmpty)
            for key in "2468" { loop.send(.input(.key(.character(key)))) }
            loop.send(.input(.key(.enter)))
            try await wait("the command, as Ada") { handOffs.ran == [ada] }
        }
    }
}
