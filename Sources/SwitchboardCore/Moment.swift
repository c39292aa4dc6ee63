#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in wall-clock time: seconds since 1970-01-01 00:00 UTC.
///
/// The core's own time type, so that the core and the chooser's panes need
/// no Foundation. Modules that use Foundation convert at their edge:
/// `Moment(secondsSince1970: date.timeIntervalSince1970)` and
/// `Date(timeIntervalSince1970: moment.secondsSince1970)`.
public struct Moment: Hashable, Sendable, Strideable, CustomStringConvertible {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The system's wall clock, now.
    public static func now() -> Moment {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Moment(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Seconds from this moment to `other` (negative when `other` is earlier).
    public func distance(to other: Moment) -> Double { other.secondsSince1970 - secondsSince1970 }

    /// This moment moved by `seconds`.
    public func advanced(by seconds: Double) -> Moment { Moment(secondsSince1970: secondsSince1970 + seconds) }

    public var description: String { "Moment(\(secondsSince1970))" }
}
