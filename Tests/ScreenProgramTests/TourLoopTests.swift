import DemoProvider
import DeviceFlow
import Foundation
import Store
import Synchronization
import Testing
import TestSupport
import TestBasics
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The tour in the real UI loop, against a demo provider in this process
/// that it drives through its HTTP API, with real stores: a whole round,
/// then the next in an empty store. The flows and the provider share a
/// clock ten times as fast as real time, so a code's polls, its
/// `slow_down` and its expiry take little real time (and a code still
/// lives a minute of it, for a busy machine); the tour's own beats are
/// short.
@Suite("demo tour: a whole round in the UI loop", .timely)
@MainActor
struct TourLoopTests {
    @Test("every step in order, with its caption: the store ends with Ada merged and Grace linked, signed out; then round two in an empty store")
    func wholeRound() async throws {
        let clock = FastClock(speed: 10)
        let server = DemoServer(settings: DemoSettings(interval: TourState.pollInterval), now: { clock.now() })
        let base = try await server.start(port: 0)
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let first = ProviderSettings.demo(issuer: base)
        var second = ProviderSettings.demo(issuer: base)
        second.id = "demo-lab"
        second.displayName = "Demo Lab"
        let transport = URLSessionTransport(timeout: 10)
        let api = DemoAPI(server: base, transport: transport)
        let stores = Mutex(0)
        let newStore = { @Sendable () throws -> AppDatabase in
            let round = stores.withLock { round in
                round += 1
                return round
            }
            return try AppDatabase(testing: folder.file("round-\(round).sqlite"))
        }
        let driver = TourDriver(
            provider: { request in
                do {
                    switch request {
                    case .settings(let expiresIn, let interval, let slowDownPolls):
                        return try await api.settings(expiresIn: expiresIn, interval: interval, slowDownPolls: slowDownPolls)
                    case .approve(let code, let person): return try await api.decide(userCode: code, person: person, deny: false).problem
                    case .deny(let code): return try await api.decide(userCode: code, person: "ada", deny: true).problem
                    case .freshStore: return "not here"
                    }
                } catch { return "\(error)" }
            },
            freshStore: newStore)
        let chooser = AppState(session: SessionKey("pts/1")!, size: Size(width: 100, height: 30), now: Moment.now(), guide: Fixture.guide,
                             theme: .builtIn, providers: [ProviderChoice(id: first.id, name: first.name), ProviderChoice(id: second.id, name: "Demo Lab")])
        let state = Tour(chooser, tour: TourState(script: TourState.script(first: first.id, second: second.id, expiry: 4), beat: 0.02, idle: 600))
        var captions: [String] = []
        var endOfRound: (accounts: [Account], active: ActiveAccount)?
        var loop: ChooserLoop<Tour>?
        loop = ChooserLoop(
            program: state,
            environment: ChooserEnvironment(
                database: try newStore(), bus: NotificationBus(),
                providers: ProviderDirectory(configuration: ProviderConfiguration(providers: [first, second]), transport: transport),
                clock: clock, copy: { _ in }, open: { _ in }, nextTheme: { _ in (Theme.monochrome, nil) }, tour: driver),
            render: { state in
                guard let caption = state.caption, captions.last != caption else { return }
                captions.append(caption)
                if caption.hasPrefix("Once more"), let database = loop?.environment.database {
                    endOfRound = (try! database.accounts(), try! database.active(in: state.chooser.session))
                }
            })
        let running = try #require(loop)
        running.start()
        try await waitUntil("round two", within: 120) { running.program.tour.round == 2 && running.program.tour.pending == nil }
        // Round two's first caption may already be drawn when its start is seen.
        #expect(captions.prefix(9).map { String($0.prefix(3)) } == ["1/8", "2/8", "3/8", "4/8", "5/8", "6/8", "7/8", "8/8", "Onc"], "\(captions)")
        #expect(captions.dropFirst(9).allSatisfy { $0.hasPrefix("1/8") }, "\(captions)")
        #expect(running.program.caption?.hasPrefix("1/8") == true, "round two from its first step, nothing gone wrong")
        let (accounts, active) = try #require(endOfRound)
        #expect(active == .anonymous, "signed out at the end")
        let shapes = accounts.map { "\($0.name): \($0.identities.map(\.provider.rawValue).sorted().joined(separator: " "))" }.sorted()
        #expect(shapes == ["Ada Lovelace: demo demo-lab", "Grace Hopper: demo demo-lab"], "\(shapes)")
        // Round two: an empty store of its own.
        #expect(try running.environment.database.accounts().isEmpty)
        #expect(running.environment.database.path.hasSuffix("round-2.sqlite"))
        #expect(running.state.accounts.list.count == 0 && running.state.active == .anonymous)
        running.send(.terminate)
        await server.stop()
    }
}
