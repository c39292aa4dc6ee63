import Foundation

/// Server-wide brake on guessing user codes (RFC 8628 §5.1): after `limit` wrong
/// codes within `window` seconds, further attempts are refused until the oldest
/// failure leaves the window.
struct AttemptLimiter: Sendable {
    /// Wrong codes tolerated per window.
    let limit = 5
    /// Length of the sliding window, in seconds.
    let window: TimeInterval = 60
    private var failures: [Date] = []

    /// Whether attempts are currently refused.
    mutating func isBlocked(at now: Date) -> Bool {
        failures.removeAll { now.timeIntervalSince($0) >= window || $0 > now }
        return failures.count >= limit
    }

    /// Records a wrong code.
    mutating func recordFailure(at now: Date) {
        failures.append(now)
    }
}
