import Foundation

/// A brake on guessing user codes (RFC 8628 §5.1), per client: after `limit`
/// wrong codes from one client within `window` seconds, that client's
/// attempts are refused until its oldest failure leaves the window. Other
/// clients, and so the person typing the right code, are not held up.
struct AttemptLimiter: Sendable {
    /// Wrong codes tolerated per client and window.
    let limit = 5
    /// Length of the sliding window, in seconds.
    let window: TimeInterval = 60
    private var failures: [String: [Date]] = [:]

    /// Whether `client`'s attempts are currently refused.
    mutating func isBlocked(_ client: String, at now: Date) -> Bool {
        forgetOld(at: now)
        return failures[client, default: []].count >= limit
    }

    /// Records a wrong code from `client`.
    mutating func recordFailure(_ client: String, at now: Date) {
        failures[client, default: []].append(now)
    }

    /// Drops failures outside the window, and clients left with none, so
    /// the table holds only the last minute's guessers.
    private mutating func forgetOld(at now: Date) {
        for (client, dates) in failures {
            let recent = dates.filter { now.timeIntervalSince($0) < window && $0 <= now }
            failures[client] = recent.isEmpty ? nil : recent
        }
    }
}
