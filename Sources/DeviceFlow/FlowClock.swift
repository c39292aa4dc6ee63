import Foundation

/// The flow's idea of time: the real clock, or a test's.
public protocol FlowClock: Sendable {
    func now() -> Date
    /// Sleeps until `date`; throws `CancellationError` when cancelled.
    func sleep(until date: Date) async throws
}

/// Wall-clock time.
public struct SystemFlowClock: FlowClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
        try Task.checkCancellation()
    }
}

/// A clock that runs `speed` times as fast as real time, from `origin` on:
/// a flow on it polls, slows down and expires as on the system clock, only
/// sooner, and never faster than its provider answers. Shared by a flow and
/// the demo server (as `demo tour`'s hidden `--clock-speed` and tests do),
/// it keeps the protocol's seconds (a poll interval, `slow_down`'s 5 s, a
/// code's lifetime) while taking a fraction of the time.
public final class FastClock: FlowClock, Sendable {
    public let speed: Double
    private let origin: Date
    private let began = DispatchTime.now().uptimeNanoseconds

    public init(speed: Double, origin: Date = Date()) {
        self.speed = speed
        self.origin = origin
    }

    public func now() -> Date {
        origin.addingTimeInterval(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 * speed)
    }

    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSince(now()) / speed
        if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
        try Task.checkCancellation()
    }
}
