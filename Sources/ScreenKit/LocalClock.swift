import SwitchboardCore

/// Local time for the top bar's clock. The offset from UTC comes from
/// outside (this module has no time zones), per moment, so a change to or
/// from summer time shows.
public struct LocalClock: Sendable {
    /// Seconds east of UTC at a moment.
    public let offset: @Sendable (Moment) -> Int

    /// A clock whose offset from UTC `offset` gives for each moment.
    public init(offset: @escaping @Sendable (Moment) -> Int) { self.offset = offset }

    /// A clock at a fixed offset from UTC (0 for UTC itself).
    public static func fixed(_ seconds: Int) -> LocalClock { LocalClock { _ in seconds } }

    /// The local time at `moment` as HH:MM.
    public func text(at moment: Moment) -> String {
        let minutes = Int((local(moment) / 60).rounded(.down))
        let ofDay = (minutes % 1440 + 1440) % 1440
        let (hours, rest) = (ofDay / 60, ofDay % 60)
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// The first moment after `moment` at which the shown minute changes.
    public func nextMinute(after moment: Moment) -> Moment {
        let offset = Double(offset(moment))
        // Whole seconds throughout, so the moment is exact.
        return Moment(secondsSince1970: (((moment.secondsSince1970 + offset) / 60).rounded(.down) + 1) * 60 - offset)
    }

    private func local(_ moment: Moment) -> Double { moment.secondsSince1970 + Double(offset(moment)) }
}
