
/// Why a key's command cannot act now (lazygit's disabled reason): said
/// when the key is pressed, and shown in the key bar by one rule.
public struct Unavailable: Hashable, Sendable {
    public init(reason: String, hidden: Bool) {
        self.reason = reason
        self.hidden = hidden
    }

    /// What pressing the key says.
    public let reason: String
    /// Refused on this screen whatever happens (a station's locked keys):
    /// left out of the key bar and help. Otherwise it is drawn dimmed, as it
    /// may work in a moment.
    public let hidden: Bool

    /// A station's answer to its locked keys.
    public static let stationLocked = Unavailable(reason: "This station is locked.", hidden: true)

    /// While another machine runs a station of this name (`taken` says so).
    public static func nameTaken(_ taken: String) -> Unavailable { Unavailable(reason: taken, hidden: false) }

    /// While a shared store's server cannot be reached: it never pretends.
    public static let offline = Unavailable(
        reason: "Station offline — retrying: nothing can be switched or signed in until the store is back.", hidden: false)
}
