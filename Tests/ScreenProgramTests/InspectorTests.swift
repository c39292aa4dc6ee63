import DemoProvider
import DeviceFlow
import Foundation
import Synchronization
import Testing
import TestSupport
import Store
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// A real sign-in against the demo provider on a manual clock, traced as
/// the chooser traces it; the test acts on the provider just before a
/// given poll goes out, so every run records the same exchanges.
struct TracedSignIn {
    let entries: [FlowTraceEntry]
    let report: SignInReport
    let code: DeviceAuthorization
    /// Every secret that went over the wire: the device code, the tokens, the client secret.
    let secrets: [String]

    static let clientSecret = "CLIENT-SECRET-VALUE-4242"

    /// `beforePoll[n]` runs before the n-th poll is sent, with the code's user code.
    static func run(
        _ settings: DemoSettings, beforePoll: [Int: @Sendable (DemoServer, String) async throws -> Void] = [:]
    ) async throws -> TracedSignIn {
        let clock = ManualClock()
        let server = DemoServer(settings: settings, now: { clock.now() })
        let base = try await server.start(port: 0)
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let database = try AppDatabase(testing: folder.file("switchboard.sqlite"))
        var demo = ProviderSettings.demo(issuer: base)
        demo.clientSecret = clientSecret
        let transport = ScriptedTransport(URLSessionTransport(timeout: 10), server: server, beforePoll: beforePoll)
        let directory = ProviderDirectory(configuration: ProviderConfiguration(providers: [demo]), transport: transport)
        let trace = FlowTrace(clock: clock)
        let (provider, _) = try await directory.resolveForSignIn("demo", trace: trace)
        let run = SignInRun(provider: provider, mode: .signIn, session: SessionKey("pts/3")!, database: database, bus: nil,
                            transport: transport, clock: clock, trace: trace)
        let code = try await run.requestCode()
        transport.userCode.withLock { $0 = code.userCode }
        let report = try await run.finish()
        await server.stop()
        return TracedSignIn(entries: trace.entries, report: report, code: code, secrets: transport.secrets + [clientSecret])
    }

    /// What each entry is, in order: its step and how it ended.
    var steps: [String] { entries.map { "\($0.step): \($0.status.map { "\($0) " } ?? "")\($0.result)" } }

    /// The chooser with the sign-in dialog at its end and the inspector open, drawn.
    func screen(_ size: Size, ending: SignInEnding) -> Buffer {
        var state = inspecting(size)
        _ = state.reduce(.signInEnded(ending, conflict: nil))
        return Screen.draw(state)
    }

    /// The chooser with the sign-in dialog's code showing and the inspector open.
    func inspecting(_ size: Size, code waiting: WaitingCode? = nil, entries shown: [FlowTraceEntry]? = nil) -> AppState {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, .character("i"), on: &state)
        _ = state.reduce(.codeReady(waiting ?? WaitingCode.of(code, demoServer: nil)))
        _ = state.reduce(.signInTraced(shown ?? entries))
        return state
    }

    /// `text` with what differs from run to run made fixed, each of its own width:
    /// the port, the user code, the short hashes and the key id.
    static func normalised(_ text: String) -> String {
        var text = text
        let rules: [(String, String)] = [
            (#"127\.0\.0\.1:[0-9]{5}"#, "127.0.0.1:PPPPP"),
            (#"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}"#, "XXXX-XXXX"),
            (#"#[0-9a-f]{6}›"#, "#hhhhhh›"),
            (#"kid=[A-Za-z0-9_-]{43}"#, "kid=" + String(repeating: "K", count: 43)),
        ]
        for (pattern, replacement) in rules {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}

/// Runs requests through `inner`; before the n-th poll, the test's action;
/// keeps every secret the provider sent.
final class ScriptedTransport: HTTPTransport, Sendable {
    let inner: any HTTPTransport
    let server: DemoServer
    let beforePoll: [Int: @Sendable (DemoServer, String) async throws -> Void]
    let userCode = Mutex("")
    private let polls = Mutex(0)
    private let captured = Mutex<[String]>([])

    init(_ inner: any HTTPTransport, server: DemoServer, beforePoll: [Int: @Sendable (DemoServer, String) async throws -> Void]) {
        self.inner = inner
        self.server = server
        self.beforePoll = beforePoll
    }

    var secrets: [String] { captured.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if String(decoding: request.body ?? Data(), as: UTF8.self).contains("grant-type%3Adevice_code") {
            let poll = polls.withLock { count in
                count += 1
                return count
            }
            if let action = beforePoll[poll] { try? await action(server, userCode.withLock { $0 }) }
        }
        let response = try await inner.send(request)
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
            let found = ["device_code", "access_token", "refresh_token", "id_token"].compactMap { object[$0] as? String }
            captured.withLock { $0 += found }
        }
        return response
    }
}

@Suite("The sign-in's inspector and --trace")
struct InspectorTests {
    static let person: @Sendable (DemoServer, String) async throws -> Void = { server, code in try await server.approve(userCode: code, as: "ada") }

    @Test("approved: discovery, the code, each poll with its answer, the tokens, the keys, the id_token's claims")
    func approved() async throws {
        let flow = try await TracedSignIn.run(DemoSettings(interval: 5), beforePoll: [3: Self.person])
        #expect(flow.steps == [
            "discovery: 200 OK", "device authorization: 200 OK", "poll 1: 400 authorization_pending", "poll 2: 400 authorization_pending",
            "poll 3: 200 OK: tokens", "signing keys: 200 OK", "id_token: checked: signature, iss, aud, exp",
        ])
        #expect(flow.entries.map(\.elapsed) == [0, 0, 5, 10, 15, 15, 15])
        #expect(flow.entries.map(\.reference) == [
            "OIDC Discovery §4", "RFC 8628 §3.1–3.2", "RFC 8628 §3.4–3.5", "RFC 8628 §3.4–3.5", "RFC 8628 §3.4–3.5", "OIDC Core §10.1",
            "OIDC Core §3.1.3.7",
        ])
        let code = flow.entries[1].received.joined(separator: " ")
        #expect(code.contains("user_code=\(flow.code.userCode)"), "user codes show as they are")
        #expect(code.contains("device_code=‹43\u{A0}chars\u{A0}#"))
        let claims = flow.entries[6].received
        #expect(claims.contains("aud=switchboard-demo") && claims.contains("name=Ada Lovelace") && claims.contains("sub=1815"))
        #expect(claims.contains { $0.hasPrefix("exp=") && $0.hasSuffix("(in 3600 s)") })
        #expect(flow.report.account?.name == "Ada Lovelace")
        for size in [Size(width: 80, height: 24), Size(width: 100, height: 30), Size(width: 120, height: 40)] {
            let ending = SignInEnding(outcome: flow.report.outcome, accountName: "Ada Lovelace", isNew: true)
            Snapshot.check(flow.screen(size, ending: ending), "inspector-approved-\(size.width)x\(size.height)", normalising: TracedSignIn.normalised)
        }
    }

    @Test("denied: the poll after the denial answers access_denied")
    func denied() async throws {
        let flow = try await TracedSignIn.run(DemoSettings(interval: 5), beforePoll: [2: { server, code in try await server.deny(userCode: code) }])
        #expect(flow.steps == ["discovery: 200 OK", "device authorization: 200 OK", "poll 1: 400 authorization_pending", "poll 2: 400 access_denied"])
        #expect(flow.entries[3].received.contains { $0.hasPrefix("error_description=") })
        #expect(flow.report.outcome == .denied)
        Snapshot.check(flow.screen(Size(width: 100, height: 30), ending: SignInEnding(outcome: .denied)), "inspector-denied-100x30",
                       normalising: TracedSignIn.normalised)
    }

    @Test("expired: no poll past the code's lifetime, and the inspector says so")
    func expired() async throws {
        let flow = try await TracedSignIn.run(DemoSettings(expiresIn: 12, interval: 5))
        #expect(flow.steps == [
            "discovery: 200 OK", "device authorization: 200 OK", "poll 1: 400 authorization_pending", "poll 2: 400 authorization_pending",
            "expires_in: the code expired: no poll is sent past its lifetime",
        ])
        #expect(flow.entries.last?.elapsed == 12)
        #expect(flow.report.outcome == .expired)
        Snapshot.check(flow.screen(Size(width: 100, height: 30), ending: SignInEnding(outcome: .expired)), "inspector-expired-100x30",
                       normalising: TracedSignIn.normalised)
    }

    @Test("slow_down: the answer and the new interval, then polls that far apart")
    func slowDown() async throws {
        let flow = try await TracedSignIn.run(DemoSettings(interval: 5, slowDownPolls: 1), beforePoll: [2: Self.person])
        #expect(flow.steps == [
            "discovery: 200 OK", "device authorization: 200 OK", "poll 1: 400 slow_down", "poll 2: 200 OK: tokens", "signing keys: 200 OK",
            "id_token: checked: signature, iss, aud, exp",
        ])
        #expect(flow.entries[2].received == ["interval now 10 s"])
        #expect(flow.entries.map(\.elapsed) == [0, 0, 5, 15, 15, 15])
        let ending = SignInEnding(outcome: flow.report.outcome, accountName: "Ada Lovelace", isNew: true)
        Snapshot.check(flow.screen(Size(width: 100, height: 30), ending: ending), "inspector-slow-down-100x30", normalising: TracedSignIn.normalised)
        // While it waits: the code, its QR code and the slow_down in the inspector (the fixture's code, so the QR code is the same each run).
        var code = Fixture.code(polls: 1)
        code.interval = 10
        let waiting = flow.inspecting(Size(width: 120, height: 40), code: code, entries: Array(flow.entries.prefix(3)))
        Snapshot.check(Screen.draw(waiting), "inspector-slow-down-waiting-120x40", normalising: TracedSignIn.normalised)
    }

    @Test("no 8 bytes in a row of any token, device code or client secret appear in the inspector or the trace's lines")
    func noSecrets() async throws {
        let flows = [
            try await TracedSignIn.run(DemoSettings(interval: 5), beforePoll: [2: Self.person]),
            try await TracedSignIn.run(DemoSettings(interval: 5, slowDownPolls: 1), beforePoll: [2: Self.person]),
            try await TracedSignIn.run(DemoSettings(interval: 5), beforePoll: [1: { server, code in try await server.deny(userCode: code) }]),
        ]
        for flow in flows {
            #expect(flow.secrets.count >= 2, "the device code and the client secret at least: \(flow.secrets.count)")
            let trace = flow.entries.flatMap(\.lines).joined(separator: "\n")
            var shown = [trace]
            for size in [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)] {
                let rows = flow.screen(size, ending: SignInEnding(outcome: flow.report.outcome)).lines
                shown.append(rows.joined(separator: "\n"))
                // A secret wrapped over rows would be whole again without the frame and the spaces.
                shown.append(rows.joined().filter { !$0.isWhitespace && !"│─┌┐└┘".contains($0) })
            }
            #expect(shownPieces(of: flow.secrets, in: shown).isEmpty)
            for secret in flow.secrets {
                #expect(trace.contains(FlowTrace.redacted(secret)), "each secret shows as its length and a short hash")
            }
        }
    }
}
