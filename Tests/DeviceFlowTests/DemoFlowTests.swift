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

    @Test("cancel while waiting for the next poll: cancelled at once, without waiting for the clock, nothing in flight",
          .timeLimit(.minutes(1)))
    func cancelWhileWaiting() async throws {
        // The clock lets the first poll (+1) go out, then holds the flow at
        // its next sleep (until +2) for as long as it is not cancelled.
        let clock = HoldingClock(holdingAfter: 1)
        let server = DemoServer(settings: DemoSettings(interval: 1), now: { clock.now() })
        let base = try await server.start(port: 0)
        let transport = RecordingTransport(URLSessionTransport(timeout: 5), clock: clock)
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: base.appendingPathComponent("device_authorization"),
            tokenEndpoint: base.appendingPathComponent("token"), client: ClientCredentials(clientID: "t"), scopes: [],
            transport: transport, clock: clock)
        let code = try await flow.requestCode()
        let waiting = Task { await flow.waitForApproval() }
        for await date in clock.sleeps where date > clock.horizon { break }
        flow.cancel()
        #expect(await waiting.value == .cancelled)
        let (first, second) = (code.issuedAt.addingTimeInterval(1), code.issuedAt.addingTimeInterval(2))
        #expect(clock.requested == [first, second], "one sleep before each poll, the second one held")
        #expect(clock.cancelled == [second], "the held sleep ended by cancellation")
        #expect(clock.now() == first, "cancelled without the clock moving on")
        #expect(transport.times("/token") == [first])
        #expect(transport.inFlight == 0)
        await server.stop()
    }

    @Test("cancel while a poll is in flight: the request ends as cancelled, not by its time limit; nothing left in flight",
          .timeLimit(.minutes(1)))
    func cancelWhilePolling() async throws {
        // A token endpoint that never answers, and a transport that would
        // wait for it for 300 s: only cancellation ends the poll.
        let rig = try HangingTokenRig(expiresIn: 1800, interval: 5, transportTimeout: 300)
        defer { rig.server.stop() }
        let (clock, watched, transport, flow) = (rig.clock, rig.watched, rig.transport, rig.flow)
        let code = try await flow.requestCode()
        let events = EventLog()
        let waiting = Task { await flow.waitForApproval { events.add($0) } }
        for await request in watched.started where request.url.path.hasSuffix("/token") { break }
        flow.cancel()
        #expect(await waiting.value == .cancelled)
        #expect(watched.failures == [.cancelled], "the poll ended by cancellation, not by a time limit")
        #expect(events.all == [.polling(attempt: 1)], "no retry after the cancelled poll")
        #expect(clock.now() == code.issuedAt.addingTimeInterval(5))
        #expect(transport.inFlight == 0)
    }
}

/// A flow on a manual clock against a server whose token endpoint never
/// answers, through a transport that would wait `transportTimeout` seconds.
struct HangingTokenRig {
    let server: FaultServer
    let clock = ManualClock()
    let watched: WatchedTransport
    let transport: RecordingTransport
    let flow: DeviceFlow

    init(expiresIn: Int, interval: Int, transportTimeout: Double) throws {
        let device = FaultServer.response(
            200, "application/json",
            #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":\#(expiresIn),"interval":\#(interval)}"#)
        server = try FaultServer { request in request.path.hasSuffix("/device") ? device : .hang }
        watched = WatchedTransport(URLSessionTransport(timeout: transportTimeout))
        transport = RecordingTransport(watched, clock: clock)
        flow = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"),
            tokenEndpoint: server.baseURL.appendingPathComponent("token"), client: ClientCredentials(clientID: "c"),
            scopes: [], transport: transport, clock: clock)
    }
}

/// A clock like `ManualClock` up to `horizon`: a sleep until then jumps
/// there at once. A sleep past it holds the sleeper until its task is
/// cancelled (or a day goes by). Every sleep asked of it is recorded, and
/// announced on `sleeps` as it starts.
final class HoldingClock: FlowClock, Sendable {
    let horizon: Date
    /// The time asked for by each sleep, as it starts.
    let sleeps: AsyncStream<Date>
    private let announce: AsyncStream<Date>.Continuation
    private let state: Mutex<(now: Date, requested: [Date], cancelled: [Date])>

    /// Starts at `ManualClock`'s start and holds every sleep past `seconds` later.
    init(holdingAfter seconds: TimeInterval, start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        horizon = start.addingTimeInterval(seconds)
        state = Mutex((start, [], []))
        (sleeps, announce) = AsyncStream.makeStream(of: Date.self)
    }

    func now() -> Date { state.withLock { $0.now } }

    /// Every sleep asked for, in order.
    var requested: [Date] { state.withLock { $0.requested } }
    /// The held sleeps that ended because their task was cancelled.
    var cancelled: [Date] { state.withLock { $0.cancelled } }

    func sleep(until date: Date) async throws {
        try Task.checkCancellation()
        state.withLock { $0.requested.append(date) }
        announce.yield(date)
        if date <= horizon {
            state.withLock { $0.now = max($0.now, date) }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        do {
            try await Task.sleep(for: .seconds(86_400))
        } catch {
            state.withLock { $0.cancelled.append(date) }
            throw error
        }
        Issue.record("a held sleep was never cancelled")
        state.withLock { $0.now = max($0.now, date) }
    }
}

/// Wraps a transport: announces each request on `started` as it goes out,
/// and records each failure and each request's own time limit.
final class WatchedTransport: HTTPTransport, Sendable {
    let inner: any HTTPTransport
    /// Each request, as it goes out.
    let started: AsyncStream<HTTPRequest>
    private let announce: AsyncStream<HTTPRequest>.Continuation
    private let log = Mutex<(limits: [(path: String, seconds: TimeInterval?)], failures: [TransportError])>(([], []))

    init(_ inner: any HTTPTransport) {
        self.inner = inner
        (started, announce) = AsyncStream.makeStream(of: HTTPRequest.self)
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        log.withLock { $0.limits.append((request.url.path, request.timeout)) }
        announce.yield(request)
        do {
            return try await inner.send(request)
        } catch {
            log.withLock { $0.failures.append(error) }
            throw error
        }
    }

    /// How each request failed, in order.
    var failures: [TransportError] { log.withLock { $0.failures } }

    /// The time limits of the requests to paths ending in `suffix`.
    func limits(_ suffix: String) -> [TimeInterval?] {
        log.withLock { $0.limits.filter { $0.path.hasSuffix(suffix) }.map(\.seconds) }
    }
}

/// Collects poll events.
final class EventLog: Sendable {
    private let events = Synchronization.Mutex<[PollEvent]>([])
    func add(_ event: PollEvent) { events.withLock { $0.append(event) } }
    var all: [PollEvent] { events.withLock { $0 } }
}

import Synchronization
