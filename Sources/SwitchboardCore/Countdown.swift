/// Time left, as a countdown shows it. Total: any `Double` gives a line,
/// never a trap (not-a-number and negatives show 0:00, infinity the most).
public enum Countdown {
    /// The most a countdown shows: 99:59:59.
    public static let longest = 359_999

    /// Whole seconds left, rounded up: 0 for anything not positive or not
    /// a number, at most `longest`.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        let rounded = seconds.rounded(.up)
        return rounded >= Double(longest) ? longest : Int(rounded)
    }

    /// `m:ss` under an hour, `h:mm:ss` from an hour on.
    public static func text(_ seconds: Double) -> String {
        let left = wholeSeconds(seconds)
        let hours = left / 3600, minutes = left / 60 % 60, rest = left % 60
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
