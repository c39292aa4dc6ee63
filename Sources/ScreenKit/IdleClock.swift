import SwitchboardCore

/// One idle rule for every layer that takes the screen back after a while
/// without a key (a station's return to its first screen, the tour taking
/// the chooser back): `timeout` seconds after the last activity the time is
/// up, after `warning` seconds more of notice (a station's countdown; none
/// for the tour). An infinite timeout never runs out.
public struct IdleClock: Hashable, Sendable {
    /// When someone was last there.
    public private(set) var lastActivity: Moment
    /// Seconds without activity before the warning.
    public let timeout: Double
    /// Seconds of warning before the time is up.
    public let warning: Double

    public init(since lastActivity: Moment, timeout: Double, warning: Double = 0) {
        self.lastActivity = lastActivity
        self.timeout = timeout
        self.warning = warning
    }

    /// Someone is there at `moment`: the time starts again.
    public mutating func activity(at moment: Moment) { lastActivity = moment }

    /// When the warning starts.
    public var warningStart: Moment { lastActivity.advanced(by: timeout) }
    /// When the time is up.
    public var runsOut: Moment { warningStart.advanced(by: warning) }

    /// Whether the warning shows at `now` (or the time is up).
    public func isWarning(at now: Moment) -> Bool { timeout.isFinite && now >= warningStart }
    /// Whether the time is up at `now`.
    public func hasRunOut(at now: Moment) -> Bool { timeout.isFinite && now >= runsOut }

    /// Whole seconds left while the warning shows; nil before it.
    public func secondsLeft(at now: Moment) -> Int? {
        guard isWarning(at: now) else { return nil }
        return max(0, Int(now.distance(to: runsOut).rounded(.up)))
    }

    /// The next moment the clock changes after `now`: the warning's start, else the end; nil when it never runs out.
    public func nextChange(after now: Moment) -> Moment? {
        guard timeout.isFinite else { return nil }
        return now < warningStart ? warningStart : runsOut
    }
}
