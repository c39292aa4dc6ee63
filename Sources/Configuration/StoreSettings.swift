import ConfigFile
import Foundation
import SwitchboardCore

/// The `[store]` table: a store shared by several stations (read and
/// checked; nothing uses it yet), and how long its events are kept (the
/// chooser prunes older ones in the background).
///
/// ```toml
/// [store]
/// url = "https://switchboard.example.org"   # https, or plain http to a loopback host
/// station = "lab-3"                         # this station's name there
/// keep_events = "400d"                      # a whole number of hours (h), days (d) or weeks (w)
/// ```
public struct StoreSettings: Hashable, Sendable {
    /// `url`: where the shared store is; it passes `EndpointPolicy` like every URL.
    public var url: URL?
    /// `station`: the name this station goes by in the store.
    public var station: String?
    /// `keep_events`: how long events are kept; nil when not set, and then
    /// `defaultKeepEvents` applies (`eventsKept`).
    public var keepEvents: Duration?

    /// How long events are kept when `keep_events` is not set: 400 days.
    public static let defaultKeepEvents: Duration = .seconds(400 * 86_400)

    /// How long events are kept: `keep_events`, else the default.
    public var eventsKept: Duration { keepEvents ?? Self.defaultKeepEvents }

    public init(url: URL? = nil, station: String? = nil, keepEvents: Duration? = nil) {
        self.url = url
        self.station = station
        self.keepEvents = keepEvents
    }

    /// The keys `[store]` takes.
    static let keys = ["url", "station", "keep_events"]
    /// The longest name `station` may be.
    public static let maximumStationLength = 64
    /// The longest `keep_events` may be, in days (about a hundred years).
    public static let maximumKeptDays = 36_500

    /// The settings in `table`; empty when there is none.
    static func parse(_ table: TOMLTable?) throws(ConfigError) -> StoreSettings {
        var settings = StoreSettings()
        guard let table else { return settings }
        try table.rejectUnknownKeys(allowed: keys)
        settings.url = try ProviderSection.url(table, "url", example: "https://switchboard.example.org")
        if let station = try table.optionalString("station") {
            if let problem = stationProblem(station) { throw table.error(key: "station", problem) }
            settings.station = station
        }
        if let text = try table.optionalString("keep_events") {
            switch duration(text) {
            case .success(let duration): settings.keepEvents = duration
            case .failure(let problem): throw table.error(key: "keep_events", problem.message)
            }
        }
        return settings
    }

    /// Why `name` cannot be a station's name, or nil when it can.
    static func stationProblem(_ name: String) -> String? {
        if name.isEmpty { return "expected the station's name, found an empty string" }
        if name.unicodeScalars.contains(where: { $0.isTerminalControl || $0.properties.generalCategory == .control }) {
            return "a station's name cannot hold control characters"
        }
        if name.first?.isWhitespace == true || name.last?.isWhitespace == true {
            return "a station's name cannot start or end with a space"
        }
        if name.count > maximumStationLength { return "a station's name is at most \(maximumStationLength) characters" }
        return nil
    }

    /// Why a `keep_events` text is refused.
    struct DurationProblem: Error {
        let message: String
    }

    /// The duration `text` names: a whole number followed by `h` (hours),
    /// `d` (days) or `w` (weeks), such as `400d`; more than zero and at most
    /// ``maximumKeptDays`` days.
    static func duration(_ text: String) -> Result<Duration, DurationProblem> {
        let shown = "\"\(text.displaySafe)\""
        let expected = "expected a duration such as \"400d\" (a whole number and h, d or w), found \(shown)"
        guard let unit = text.last else { return .failure(DurationProblem(message: expected)) }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(DurationProblem(message: expected))
        }
        let hours: Int
        switch unit {
        case "h": hours = 1
        case "d": hours = 24
        case "w": hours = 24 * 7
        case "m", "M", "y", "Y":
            return .failure(DurationProblem(message: "months and years vary in length; write days instead, such as \"400d\" (found \(shown))"))
        default: return .failure(DurationProblem(message: expected))
        }
        // More digits than any allowed value has: refused before it could overflow.
        let maximumHours = maximumKeptDays * 24
        guard digits.count <= String(maximumHours).count, let count = Int(digits) else {
            return .failure(DurationProblem(message: "expected at most \(maximumKeptDays)d, found \(shown)"))
        }
        guard count > 0 else { return .failure(DurationProblem(message: "expected a duration longer than zero, found \(shown)")) }
        guard count * hours <= maximumHours else {
            return .failure(DurationProblem(message: "expected at most \(maximumKeptDays)d, found \(shown)"))
        }
        return .success(.seconds(count * hours * 3600))
    }
}
