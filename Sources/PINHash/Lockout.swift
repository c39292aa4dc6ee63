import Foundation

/// How long wrong PINs make the next try wait. Pure: the time is an argument.
///
/// The first `freeFailures` wrong PINs cost nothing. After that, every
/// further try waits twice as long as the one before, starting at
/// `firstWait`: 30 s, 60 s, 120 s, … up to `longestWait`. A right PIN (or the
/// operator's reset) clears the count.
public enum Lockout {
    /// Wrong PINs allowed before any wait.
    public static let freeFailures = 5
    /// The first wait, in seconds.
    public static let firstWait: TimeInterval = 30
    /// The longest wait, in seconds (a day).
    public static let longestWait: TimeInterval = 86_400

    /// Seconds to wait after `failures` wrong PINs in a row.
    public static func wait(afterFailures failures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        let doublings = failures - freeFailures
        // 30 · 2^12 is already past a day: no overflow, however many failures.
        guard doublings < 12 else { return longestWait }
        return min(longestWait, firstWait * Double(1 << doublings))
    }

    /// When the next try may be made, or nil when it may be made at once.
    public static func retryAt(failures: Int, lastFailure: Date?) -> Date? {
        let wait = wait(afterFailures: failures)
        guard wait > 0, let lastFailure else { return nil }
        return lastFailure.addingTimeInterval(wait)
    }

    /// Whether a try at `now` must wait, and until when.
    public static func lockedUntil(failures: Int, lastFailure: Date?, now: Date) -> Date? {
        guard let until = retryAt(failures: failures, lastFailure: lastFailure), until > now else { return nil }
        return until
    }
}
