import DemoProvider
import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// A demo server and a flow against it, both on one manual clock.
struct DemoRig {
    let clock = ManualClock()
    let server: DemoServer
    let base: URL
    let transport: RecordingTransport

    init(_ settings: DemoSettings) async throws {
        let clock = clock
        server = DemoServer(settings: settings, now: { clock.now() })
        base = try await server.start(port: 0)
        transport = RecordingTransport(URLSessionTransport(timeout: 5), clock: clock)
    }

    func flow(clientID: String = "switchboard-test") -> DeviceFlow {
        DeviceFlow(
            deviceAuthorizationEndpoint: base.appendingPathComponent("device_authorization"),
            tokenEndpoint: base.appendingPathComponent("token"), client: ClientCredentials(clientID: clientID),
            scopes: ["openid", "profile", "email"], transport: transport, clock: clock)
    }

    /// Seconds after `start` at which the token endpoint was polled.
    func pollOffsets(since start: Date) -> [Int] {
        transport.times("/token").map { Int($0.timeIntervalSince(start).rounded()) }
    }
}

@Suite("Device flow against the demo provider")
struct DemoFlowTests {
    @Test("approved: the token arrives on the first poll after approval, at the interval")
    func approved() async throws {
        let rig = try await DemoRig(DemoSettings(interval: 5))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        #expect(code.userCode.count == 9 && code.userCode.contains("-"))
        #expect(code.verificationURIComplete?.absoluteString.contains(code.userCode) == true)
        try await rig.server.approve(userCode: code.userCode, as: "ada")
        guard case .approved(let tokens) = await flow.waitForApproval() else {
            Issue.record("expected approval")
            return
        }
        #expect(tokens.idToken != nil && tokens.refreshToken != nil)
        #expect(rig.pollOffsets(since: code.issuedAt) == [5])
        await rig.server.stop()
    }

    @Test("slow_down adds 5 s to this and every later poll: exactly the RFC's schedule, no extra polls")
    func slowDownSchedule() async throws {
        let rig = try await DemoRig(DemoSettings(interval: 5, slowDownPolls: 2))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        try await rig.server.approve(userCode: code.userCode, as: "grace")
        let events = EventLog()
        let result = await flow.waitForApproval { events.add($0) }
        guard case .approved = result else {
            Issue.record("expected approval, got \(result)")
            return
        }
        // Poll 1 at +5 → slow_down (interval 10); poll 2 at +15 → slow_down
        // (interval 15); poll 3 at +30 → tokens.
        #expect(rig.pollOffsets(since: code.issuedAt) == [5, 15, 30])
        #expect(events.all.contains(.slowedDown(interval: 15)))
        await rig.server.stop()
    }

    @Test("pending until the deadline: expired, and no poll at or after expires_in")
    func expiresAtDeadline() async throws {
        let rig = try await DemoRig(DemoSettings(expiresIn: 30, interval: 5))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .expired)
        #expect(rig.pollOffsets(since: code.issuedAt) == [5, 10, 15, 20, 25])
        #expect(rig.clock.now() == code.expiresAt, "expired is reported at the deadline, not before")
        await rig.server.stop()
    }

    @Test("expired_token from the server ends the flow as expired")
    func expiredByServer() async throws {
        let rig = try await DemoRig(DemoSettings(interval: 5))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        try await rig.server.expire(userCode: code.userCode)
        #expect(await flow.waitForApproval() == .expired)
        #expect(rig.pollOffsets(since: code.issuedAt) == [5])
        await rig.server.stop()
    }

    @Test("denied")
    func denied() async throws {
        let rig = try await DemoRig(DemoSettings(interval: 5))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        try await rig.server.deny(userCode: code.userCode)
        #expect(await flow.waitForApproval() == .denied)
        await rig.server.stop()
    }

    @Test("a flow is single-use")
    func singleUse() async throws {
        let rig = try await DemoRig(DemoSettings(interval: 5))
        let flow = rig.flow()
        let code = try await flow.requestCode()
        await #expect(throws: FlowFailure.self) { try await flow.requestCode() }
        try await rig.server.approve(userCode: code.userCode, as: "ada")
        guard case .approved = await flow.waitForApproval() else {
            Issue.record("expected approval")
            return
        }
        guard case .failed = await flow.waitForApproval() else {
            Issue.record("a second wait must fail")
            return
        }
        await rig.server.stop()
    }

    @Test("cancel returns at once and leaves no request in flight")
    func cancelWhilePolling() async throws {
        let server = DemoServer(settings: DemoSettings(interval: 1))
        let base = try await server.start(port: 0)
        let transport = RecordingTransport(URLSessionTransport(timeout: 5), clock: SystemFlowClock())
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: base.appendingPathComponent("device_authorization"),
            tokenEndpoint: base.appendingPathComponent("token"), client: ClientCredentials(clientID: "t"), scopes: [],
            transport: transport, clock: SystemFlowClock())
        _ = try await flow.requestCode()
        let waiting = Task { await flow.waitForApproval() }
        try await Task.sleep(for: .milliseconds(1500))
        let start = Date()
        flow.cancel()
        #expect(await waiting.value == .cancelled)
        #expect(Date().timeIntervalSince(start) < 0.5)
        #expect(transport.inFlight == 0)
        #expect(transport.times("/token").count >= 1)
        await server.stop()
    }
}

/// Collects poll events.
final class EventLog: Sendable {
    private let events = Synchronization.Mutex<[PollEvent]>([])
    func add(_ event: PollEvent) { events.withLock { $0.append(event) } }
    var all: [PollEvent] { events.withLock { $0 } }
}

import Synchronization
