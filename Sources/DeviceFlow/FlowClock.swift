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
