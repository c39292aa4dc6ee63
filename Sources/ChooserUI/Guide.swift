import ConfigFile

/// One show in tonight's listings.
public struct Show: Hashable, Sendable {
    /// Stable id, kept in the store for favourites.
    public let id: String
    /// "19:00".
    public let time: String
    public let channel: String
    public let title: String

    public init(id: String, time: String, channel: String, title: String) {
        self.id = id
        self.time = time
        self.channel = channel
        self.title = title
    }
}

/// Tonight's listings: the per-person "TV guide", read from a data file
/// compiled into the program (`Resources/guide.toml`).
public struct Guide: Hashable, Sendable {
    public let title: String
    public let shows: [Show]

    public init(title: String, shows: [Show]) {
        self.title = title
        self.shows = shows
    }

    /// The listings compiled into Switchboard.
    public static func bundled() throws(ConfigError) -> Guide {
        try parse(BundledFiles.guideText, file: "guide.toml")
    }

    /// Reads listings from `text`; errors name `file`, the line and the key.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> Guide {
        let root = try TOMLParser.parse(text, file: file).root
        try root.rejectUnknownKeys(allowed: ["title", "show"])
        var seen = Set<String>()
        var shows: [Show] = []
        for table in try root.tableArray("show") {
            try table.rejectUnknownKeys(allowed: ["id", "time", "channel", "title"])
            let show = Show(
                id: try table.string("id"), time: try table.string("time"), channel: try table.string("channel"),
                title: try table.string("title"))
            guard seen.insert(show.id).inserted else { throw table.error(key: "id", "the id \(show.id) is used twice") }
            shows.append(show)
        }
        return Guide(title: try root.optionalString("title") ?? "Tonight", shows: shows)
    }

    /// The listings for a person: favourites first, each group in time order.
    public func ordered(favourites: Set<String>) -> [Show] {
        let sorted = shows.sorted { ($0.time, $0.channel) < ($1.time, $1.channel) }
        return sorted.filter { favourites.contains($0.id) } + sorted.filter { !favourites.contains($0.id) }
    }
}
