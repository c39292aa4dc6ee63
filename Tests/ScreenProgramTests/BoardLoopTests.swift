import BoardUI
import Foundation
import Services
import Store
import Testing
import TestSupport
import TestBasics
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The board's loop against a real store (SQLite, its inotify watch) and the
/// demo provider over loopback: live rows, and the operator's actions done.
@Suite("the operator's board: its loop")
@MainActor
struct BoardLoopTests {
    @Test("another program's sign-in reaches the board with no polling; the operator signs a station out, then disconnects a person everywhere, the PIN asked once; the log names the operator's session")
    func liveAndActing() async throws {
        let rig = try await AppRig(interval: 1, start: Date())
        try await stopping(rig) {
            let database = rig.database, now = Date()
            for name in ["lab-1", "lab-2"] {
                try database.stationStarted(StationReport(
                    station: name, terminal: "tty1", session: name + "/tty1", version: "test", startedAt: now, heartbeatAt: now, heartbeatSeconds: 30), instance: "here")
            }
            _ = try await rig.signIn(as: "ada", session: SessionKey(stored: "lab-1/tty1"))
            try database.setPIN("2468", for: .operatorPIN, proof: nil)
            var frames = 0
            let loop = BoardLoop(
                state: BoardState(
                    size: Size(width: 100, height: 30), now: Moment.now(), theme: .builtIn, clock: .fixed(0), operatorSession: "ops/pts/9",
                    idleLimit: (timeout: 120, countdown: 15)),
                environment: BoardEnvironment(database: database, providers: rig.providers, nextTheme: { _ in (Theme.monochrome, nil) }),
                render: { _ in frames += 1 })
            try await loop.startSettled()
            defer { loop.stop() }
            #expect(frames >= 1)
            #expect(loop.state.stations.map(\.who) == ["Ada Lovelace", "Anonymous"])
            try await waitUntil("lab-1's events") { loop.state.events.contains { $0.what.hasPrefix("signed in (demo:") } }

            // Another program (another connection) signs Grace in at lab-2: the watch wakes the board.
            _ = try await rig.signIn(as: "grace", session: SessionKey(stored: "lab-2/tty1"))
            try await waitUntil("Grace at lab-2") { loop.state.stations.last?.who == "Grace Hopper" }

            // Sign lab-1 out: the PIN (a wrong one first), the question, done.
            for key in ["o", "1", "1", "1", "1"] { loop.send(.input(.key(.character(Character(key))))) }
            loop.send(.input(.key(.enter)))
            try await waitUntil("the wrong PIN refused") { if case .pin(let field, _) = loop.state.dialog { field.wasWrong } else { false } }
            for key in ["2", "4", "6", "8"] { loop.send(.input(.key(.character(Character(key))))) }
            loop.send(.input(.key(.enter)))
            try await waitUntil("the question") { if case .confirm = loop.state.dialog { true } else { false } }
            loop.send(.input(.key(.character("y"))))
            try await waitUntil("lab-1 signed out") { loop.state.stations.first?.active == nil && loop.state.message?.isError == false }
            #expect(loop.state.message?.text == "Signed Ada Lovelace out of lab-1/tty1.")
            try await waitUntil("the detail pane says so") { loop.state.events.contains { $0.what == "signed out by the operator at ops/pts/9" } }

            // Disconnect Grace's one identity everywhere: nothing to choose, and the PIN is kept, so only the question.
            loop.send(.input(.key(.down)))
            let graceID = try #require(loop.state.stations.last?.active)
            let grace = try #require(try database.account(graceID)?.identities.first)
            loop.send(.input(.key(.character("x"))))
            // Her identities are read off the main actor; then the question.
            try await waitUntil("the question") { loop.state.dialog == .confirm(.disconnect(grace, of: graceID, name: "Grace Hopper", isLast: true)) }
            loop.send(.input(.key(.character("y"))))
            // Told at once, then what the provider said of revoking (the demo revokes).
            try await waitUntil("Grace gone, her token revoked") { loop.state.message?.text.hasSuffix("revoked its access.") == true || loop.state.message?.isError == true }
            #expect(loop.state.message?.isError == false, "\(String(describing: loop.state.message))")
            // The fleet is read again after the write: on a busy machine, a moment after the message.
            try await waitUntil("lab-2 anonymous") { loop.state.stations.last?.active == nil }
            #expect(try database.accounts().map(\.name) == ["Ada Lovelace"])
            let disconnected = try database.events(LogQuery(limit: 10)).filter { $0.kind == "disconnect" }
            #expect(disconnected.map { EventWording.what($0) } == ["disconnected (\(grace.identity)) by the operator at ops/pts/9, account removed"])
            #expect(disconnected.map(\.session) == ["ops/pts/9"])
        }
    }
}
