import ConfigFile
import Foundation
import Postgres
import SwitchboardCore

/// The `[store]` table: a PostgreSQL store shared by several stations,
/// this station's name there, and how long events are kept (the chooser
/// prunes older ones in the background).
///
/// ```toml
/// [store]
/// url = "postgresql://switchboard@db.example.org/switchboard?sslmode=verify-full"
/// station = "lab-3"                         # this station's name there (default: the host name)
/// keep_events = "400d"                      # a whole number of hours (h), days (d) or weeks (w)
/// timeout = 2                               # seconds the server has to answer (1 to 30)
/// watch = "listen"                          # or "poll": look every poll_interval (through PgBouncer's transaction pooling)
/// poll_interval = 1                         # seconds between looks when watch = "poll" (0.1 to 60)
/// ```
///
/// The URL's password, if any, is better kept where libpq finds it
/// (`~/.pgpass`, `PGPASSFILE`, `passfile=` in the URL); a URL that carries
/// one is refused in a file that others can read.
public struct StoreSettings: Hashable, Sendable {
    /// `url`: the shared store's `postgresql://` URL, as libpq reads it.
    public var url: String?
    /// `station`: the name this station goes by in the store.
    public var station: String?
    /// `keep_events`: how long events are kept; nil when not set, and then
    /// `defaultKeepEvents` applies (`eventsKept`).
    public var keepEvents: Duration?
    /// `timeout`: how many seconds the server is given to answer one
    /// statement before the store counts as offline; nil when not set
    /// (`StoreDeadline.standard`).
    public var timeout: Int?
    /// `watch` and `poll_interval`: how other stations' writes are heard of.
    public var watching: StoreWatching = .listen

    /// How long events are kept when `keep_events` is not set: 400 days.
    public static let defaultKeepEvents: Duration = .seconds(400 * 86_400)

    /// How long events are kept: `keep_events`, else the default.
    public var eventsKept: Duration { keepEvents ?? Self.defaultKeepEvents }

    public init(url: String? = nil, station: String? = nil, keepEvents: Duration? = nil, timeout: Int? = nil) {
        self.url = url
        self.station = station
        self.keepEvents = keepEvents
        self.timeout = timeout
    }

    /// The keys `[store]` takes.
    static let keys = ["url", "station", "keep_events", "timeout", "watch", "poll_interval"]
    /// What `poll_interval` may be, in seconds.
    public static let pollIntervals = 0.1...60.0
    /// What `timeout` may be, in seconds.
    public static let timeouts = 1...30
    /// The seconds the server is given to answer: `timeout`, else 2.
    public var deadline: Double { timeout.map(Double.init) ?? 2 }
    /// The longest name `station` may be.
    public static let maximumStationLength = 64
    /// The longest `keep_events` may be, in days (about a hundred years).
    public static let maximumKeptDays = 36_500

    /// The settings in `table`; empty when there is none. A URL with a
    /// password is refused when `othersCanRead` the file.
    static func parse(_ table: TOMLTable?, othersCanRead: Bool = false) throws(ConfigError) -> StoreSettings {
        var settings = StoreSettings()
        guard let table else { return settings }
        try table.rejectUnknownKeys(allowed: keys)
        if let url = try table.optionalString("url") {
            if let problem = urlProblem(url) { throw table.error(key: "url", problem) }
            if othersCanRead, carriesPassword(url) {
                throw table.error(key: "url", "the URL holds a password and others can read \(table.file): keep the password in ~/.pgpass "
                    + "(or the file PGPASSFILE or passfile= names), or run chmod 600 \(table.file)")
            }
            settings.url = url
        }
        if let station = try table.optionalString("station") {
            if let problem = stationProblem(station) { throw table.error(key: "station", problem) }
            settings.station = station
        }
        settings.timeout = try table.optionalInteger("timeout", in: timeouts)
        if let text = try table.optionalString("keep_events") {
            switch duration(text) {
            case .success(let duration): settings.keepEvents = duration
            case .failure(let problem): throw table.error(key: "keep_events", problem.message)
            }
        }
        settings.watching = try watching(table)
        return settings
    }

    /// `watch` ("listen", the default, or "poll") and `poll_interval`, which only "poll" takes.
    private static func watching(_ table: TOMLTable) throws(ConfigError) -> StoreWatching {
        let interval = try table.optionalDouble("poll_interval")
        if let interval, !pollIntervals.contains(interval) {
            throw table.error(key: "poll_interval", "expected seconds from 0.1 to 60, found \(interval)")
        }
        switch try table.optionalString("watch") {
        case nil, "listen":
            if interval != nil { throw table.error(key: "poll_interval", "only watch = \"poll\" looks at intervals; set it, or leave poll_interval out") }
            return .listen
        case "poll":
            return .poll(seconds: interval ?? StoreWatching.standardPollSeconds)
        case let other?:
            throw table.error(key: "watch", "expected \"listen\" or \"poll\", found \(String(reflecting: other).displaySafe)")
        }
    }

    /// Why `url` cannot name a PostgreSQL store, or nil when it can: it must
    /// be a `postgresql://` (or `postgres://`) URL without control
    /// characters, that libpq can read. The message never repeats the URL,
    /// which may hold a password.
    public static func urlProblem(_ url: String) -> String? {
        let example = "postgresql://switchboard@db.example.org/switchboard?sslmode=verify-full"
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            return "expected a PostgreSQL URL such as \(example)"
        }
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "the URL holds control characters" }
        if case .failure(let error) = PGConnection.parameters(of: url) { return "libpq cannot read the URL: \(error.detail)" }
        return nil
    }

    /// Whether a store URL carries a password, read as libpq reads it
    /// (`PQconninfoParse`): in its user part (`user:password@`) or as a
    /// `password` parameter however spelt (`%70assword=` is `password=`).
    public static func carriesPassword(_ url: String) -> Bool {
        PGConnection.carriesPassword(url)
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
