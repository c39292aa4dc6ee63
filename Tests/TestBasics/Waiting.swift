import Dispatch
import Foundation

/// What a test waited for, and did not see in time.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }
}

/// The one way tests wait for something to happen: polls `condition` on the
/// caller's actor every few milliseconds until it holds, and throws
/// `TimedOut` naming `what` when `seconds` pass first (generous: a loaded
/// machine is slow, and a passing test never waits that long). A test never
/// sleeps and then asserts that nothing happened: it waits for a later event
/// that must come after, and then looks.
public func waitUntil(
    _ what: String, within seconds: Double = 30, isolation: isolated (any Actor)? = #isolation, _ condition: () throws -> Bool
) async throws {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while try !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline { throw TimedOut(what: what, seconds: seconds) }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}

/// Runs blocking `work` (a child process, say) on a thread of its own, so
/// it never holds one of the few threads all tests' async code shares.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
