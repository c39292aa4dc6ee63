import ScreenKit
import BoardUI
import DeviceFlow
import Dispatch
import Foundation
import Testing
import TestBasics
import TestSupport
@testable import ChooserApp
@testable import ChooserUI
@testable import Services
@testable import Store
import StationConfig
import SwitchboardCore
import TerminalUI

/// The chooser and the board over a store that stops answering: the screen
/// never waits for it. Keys are answered at once, the loop says offline
/// soon after its deadline, and is live again as soon as the store answers.
@Suite("a store that stops answering")
@MainActor
struct SilentStoreTests {
    static let size = Size(width: 100, height: 30)

    /// A chooser on `database`, with no providers, its frames handed to `render`.
    static func chooser<Program: ChooserProgram>(
        _ state: Program, database: AppDatabase, storeDeadline: Double = StoreDeadline.standard, frameHold: Duration = StoreLink.frameHold,
        render: @escaping @MainActor (Program) -> Void = { _ in }
    ) -> ChooserLoop<Program> {
        var environment = ChooserEnvironment(
            database: database, bus: NotificationBus(),
            providers: ProviderDirectory(configuration: ProviderConfiguration(providers: []), transport: URLSessionTransport(timeout: 5)),
            copy: { _ in }, open: { _ in }, nextTheme: { _ in (Theme.monochrome, nil) }, storeDeadline: storeDeadline)
        environment.frameHold = frameHold
        return ChooserLoop(program: state, environment: environment, render: render)
    }

    /// A gated store holding Ada and Grace, signed in at another terminal
    /// (so the loop checks nobody's credentials: no call of its own goes
    /// to the store from the concurrency pool, where a gate would hold one
    /// of its few threads).
    static func store(_ folder: TemporaryFolder) throws -> (AppDatabase, StoreGate) {
        // Another program's store on the same file is `AppDatabase(testing: folder.file("store.sqlite"))`.
        let path = folder.file("store.sqlite")
        let seeded = try AppDatabase(testing: path)
        _ = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: seeded, session: SessionKey("elsewhere")!)
        return try AppDatabase.gated(path: path, pinRounds: seeded.pinRounds)
    }

    @Test("the chooser: keys answered at once while the store is silent, offline after its deadline, live again when it answers")
    func chooser() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let session = SessionKey("pts/1")!
        let (database, gate) = try Self.store(folder)
        var frames: [(at: ContinuousClock.Instant, text: String)] = []
        let state = AppState(session: session, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn,
                             providers: [ProviderChoice(id: "demo", name: "Demo")])
        let loop = Self.chooser(state, database: database, storeDeadline: 3) { frames.append((ContinuousClock.now, Screen.draw($0).text)) }
        loop.start()
        try await waitUntil("the list read, and its index") {
            loop.state.accounts.list.count == 2 && loop.state.accounts.list.index != nil
        }

        gate.close(true)
        // Switching needs the store: the key is taken, the call goes out and waits.
        let other = try #require(loop.state.accounts.list.rows.values.first)
        try await select(other.id, in: loop)
        let pressed = ContinuousClock.now
        loop.send(.input(.key(.enter)))
        // Help needs nothing of the store: it shows in the next frame, well within 100 ms.
        loop.send(.input(.key(.character("?"))))
        // Typed while the switch's answer is on its way, it waits for it as long as a frame does, then goes on.
        try await waitUntil("a frame with help") { frames.contains { $0.at > pressed && $0.text.contains("Keys") } }
        let helpFrame = try #require(frames.first { $0.at > pressed && $0.text.contains("Keys") })
        #expect(!helpFrame.text.contains("Station offline"), "drawn before the store counted as offline: the frame did not wait for it")
        // (How soon, `switchboard-bench faults` measures: on a test run's busy machine a figure means little.)
        loop.send(.input(.key(.escape)))

        // A while later, before the deadline, the status bar says the screen waits for the store.
        try await waitUntil("the wait shown") { frames.last?.text.contains("⋯ waiting for the store") == true || loop.state.storeOffline != nil }
        #expect(frames.contains { $0.text.contains("⋯ waiting for the store") && !$0.text.contains("Station offline") })
        // Offline once the call passed its deadline, with the store still silent; no longer waiting.
        try await waitUntil("offline") { loop.state.storeOffline != nil }
        #expect(!loop.state.storeWaiting)
        try await waitUntil("offline drawn") { frames.last?.text.contains("Station offline") == true }
        // Keys that need the store say why they cannot act; the rest still work.
        loop.send(.input(.key(.character("s"))))
        #expect(loop.state.toasts.last?.text.contains("offline") == true, "\(loop.state.toasts.map(\.text))")

        // The store answers again: live, the list read again.
        gate.close(false)
        try await waitUntil("online") { loop.state.storeOffline == nil }
        // Nothing lost: who is active is what the store says.
        try await waitUntil("the screen agrees with the store") { loop.state.active.id == (try? database.active(in: session).id) }
        loop.send(.terminate)
    }

    @Test("Esc while a PIN is checked takes the switch back: nothing is switched or counted, and the late answer is dropped")
    func escapeTakesAPINCheckBack() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let session = SessionKey("pts/1")!
        let (database, gate) = try Self.store(folder)
        let ada = try #require(try database.accounts().first { $0.name == "Ada Lovelace" }).id
        try database.setPIN("2468", for: .account(ada), proof: nil)
        let state = AppState(session: session, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn, providers: [])
        let loop = Self.chooser(state, database: database)
        loop.start()
        try await waitUntil("the list read, Ada's PIN known") { loop.state.accounts.list.protected.contains(ada) }
        try await select(ada, in: loop)
        loop.send(.input(.key(.enter)))
        for digit in "2468" { loop.send(.input(.key(.character(digit)))) }
        gate.close(true)
        loop.send(.input(.key(.enter)))
        guard case .pin(let pin) = loop.state.dialog, pin.field.checking else { Issue.record("no PIN being checked: \(String(describing: loop.state.dialog))"); return }
        // Typed while the check's answer is on its way, Esc waits for it as long as a frame does, then acts.
        loop.send(.input(.key(.escape)))
        try await waitUntil("the dialog closed by Esc") { loop.state.dialog == nil }
        gate.close(false)
        // The link's calls run in order: once this one is answered, the switch's turn has passed.
        var passed = false
        loop.link.call(database, { _ throws(StoreError) in () }) { _ in passed = true }
        try await waitUntil("the switch's turn has passed") { passed }
        #expect(try database.active(in: session) == .anonymous, "taken back before anything was written")
        #expect(try database.pinAttempts(of: .account(ada)).failures == 0, "and nothing counted")
        #expect(loop.state.active == .anonymous && loop.state.dialog == nil)
        loop.send(.terminate)
    }

    @Test("the board: its keys answered while the store is silent, offline after the deadline, live again when it answers")
    func board() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (database, gate) = try Self.store(folder)
        let state = BoardState(
            size: Self.size, now: Moment.now(), theme: .builtIn, clock: LocalClock { _ in 0 }, operatorSession: "pts/9",
            idleLimit: (300, 30))
        let loop = BoardLoop(
            state: state,
            environment: BoardEnvironment(
                database: database, providers: ProviderDirectory(configuration: ProviderConfiguration(providers: []), transport: URLSessionTransport(timeout: 5)),
                nextTheme: { _ in (Theme.monochrome, nil) }, storeDeadline: 3),
            render: { _ in })
        try await loop.startSettled()
        defer { loop.stop() }
        gate.close(true)
        // Another program writes: the watch wakes the board, whose read of the fleet waits at the gate.
        _ = try Sample.signIn([LinkedIdentity(identity: Identity(provider: "demo", subject: "zoe"), displayName: "Zoe", email: nil)], into: try AppDatabase(testing: folder.file("store.sqlite")), session: SessionKey("pts/2")!)
        // `?` needs nothing of the store: answered at once.
        loop.send(.input(.key(.character("?"))))
        #expect(Self.boardShowsHelp(loop.state.dialog))
        try await waitUntil("the wait shown") { loop.state.storeWaiting || loop.state.storeOffline != nil }
        try await waitUntil("offline") { loop.state.storeOffline != nil }
        #expect(!loop.state.storeWaiting)
        gate.close(false)
        try await waitUntil("online") { loop.state.storeOffline == nil }
    }

    @Test("one change of the accounts, one read of the list and one refresh of the index: the loop settles, at a station too", arguments: [false, true])
    func oneChangeOneReload(station: Bool) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (database, _) = try Self.store(folder)
        let state = AppState(session: SessionKey("pts/1")!, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn, providers: [])
        if station {
            try await settlesAfterEachChange(Self.chooser(Station(state, settings: StationSettings(greeting: "Lab 3")), database: database))
        } else {
            try await settlesAfterEachChange(Self.chooser(state, database: database))
        }
    }

    @Test("a station stopped while the store is slow to answer: its loop ends once its sign-out is written, not before")
    func stopWritesItsSignOut() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (database, gate) = try Self.store(folder)
        let session = SessionKey("pts/1")!
        let state = AppState(session: session, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn, providers: [])
        let loop = Self.chooser(Station(state, settings: StationSettings(greeting: "Lab 3")), database: database)
        let running = Task { await loop.run() }
        try await waitUntil("the list read") { loop.state.accounts.list.count == 2 && !loop.link.isBusy }
        loop.send(.input(.key(.enter)))
        try await waitUntil("someone chosen") { (try? database.active(in: session).account) != nil && !loop.link.isBusy }
        gate.close(true)
        loop.send(.terminate)
        // The store answers again a moment after the stop: the sign-out waits at the gate until then.
        Task.detached {
            try? await Task.sleep(for: .milliseconds(300))
            gate.close(false)
        }
        await running.value
        #expect(try database.active(in: session).account == nil, "signed out before the loop ended")
    }

    /// One read of the list and one refresh of the index for each change of the accounts.
    private func settlesAfterEachChange<Program: ChooserProgram>(_ loop: ChooserLoop<Program>) async throws {
        try await loop.startSettled()
        func settled() -> Bool { !loop.link.isBusy && !loop.roster.reading && !loop.reloadScheduled && loop.state.accounts.list.index != nil }
        try await waitUntil("the index") { settled() }
        for round in 1...3 {
            let before = loop.roster.reloads
            loop.send(.accountsChanged(.anyAccount))
            try await waitUntil("round \(round) read") { loop.roster.reloads > before && settled() }
            #expect(loop.roster.reloads == before + 1, "round \(round): \(loop.roster.reloads - before) reads of the list for one change")
        }
        loop.send(.terminate)
    }

    @Test("keys typed ahead act on the screen the keys before them made: j ⏎ j ⏎ switches twice, f f stars and unstars")
    func typedAhead() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (database, _) = try Self.store(folder)
        let session = SessionKey("pts/1")!
        let state = AppState(session: session, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn, providers: [])
        // Keys wait for each answer however slow the machine is: the rule, not the machine's speed, is what is tested.
        let loop = Self.chooser(state, database: database, frameHold: .seconds(10))
        try await loop.startSettled()
        // Grace signed in last: she is first, Ada second.
        let names = (0..<2).compactMap { loop.state.accounts.account(at: $0)?.name }
        #expect(names == ["Grace Hopper", "Ada Lovelace"])
        // All in one turn, as a fast typist or a paste: down to Ada, switch (Ada moves to the top), down to Grace, switch.
        for key: Key in [.down, .enter, .down, .enter] { loop.send(.input(.key(key))) }
        try await waitUntil("both switches") { loop.state.active.account?.name == "Grace Hopper" && !loop.link.isBusy }
        #expect(loop.state.dialog == nil, "no key landed on + Add account")
        #expect(try database.active(in: session).account?.name == "Grace Hopper")
        // Star and unstar a show of Grace's at once.
        loop.send(.input(.key(.tab)))
        for key: Key in [.character("f"), .character("f")] { loop.send(.input(.key(key))) }
        try await waitUntil("the two stars answered") { !loop.link.isBusy }
        let grace = try #require(loop.state.active.id)
        let stored = try database.favourites(of: grace)
        #expect(loop.state.guide.favourites.isEmpty && stored.isEmpty, "\(loop.state.guide.favourites), stored \(stored)")
        loop.send(.terminate)
    }

    private func select(_ id: AccountID, in loop: ChooserLoop<AppState>) async throws {
        for _ in 0..<10 where loop.state.accounts.selectedItem != .account(id) { loop.send(.input(.key(.down))) }
        #expect(loop.state.accounts.selectedItem == .account(id))
    }

    static func showsHelp(_ dialog: Dialog?) -> Bool {
        if case .help = dialog { true } else { false }
    }

    static func boardShowsHelp(_ dialog: BoardDialog?) -> Bool {
        if case .help = dialog { true } else { false }
    }
}

extension ChooserLoop {
    /// Starts the loop and waits until the store answered its first reads and the first frame is drawn.
    func startSettled() async throws {
        start()
        try await waitUntil("the chooser's first reads") { !link.isBusy }
        flush()
    }
}

extension BoardLoop {
    /// Starts the board and waits until the store answered its first read and the first frame is drawn.
    func startSettled() async throws {
        start()
        try await waitUntil("the board's first read") { !link.isBusy }
        flush()
    }
}
