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

/// Tonight's listings: the TV guide of seed 000, read from a data file
/// shipped with the package (`Resources/guide.toml`).
public struct Guide: Hashable, Sendable {
    public let title: String
    public let shows: [Show]

    public init(title: String, shows: [Show]) {
        self.title = title
        self.shows = shows
    }

    /// The listings shipped with Switchboard.
    public static func bundled() throws(ConfigError) -> Guide {
        guard let path = BundledFiles.path("guide.toml") else {
            throw ConfigError(file: "guide.toml", message: "the listings file is missing from the package")
        }
        return try load(path: path)
    }

    /// Reads listings; errors name the file, line and key.
    public static func load(path: String) throws(ConfigError) -> Guide {
        let document = try ConfigFile.load(path: path, displayName: path.split(separator: "/").last.map(String.init) ?? path)
        let root = document.root
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
