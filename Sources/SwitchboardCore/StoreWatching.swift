/// How a process with a shared store open hears of other stations' writes
/// (`[store] watch`).
public enum StoreWatching: Hashable, Sendable {
    /// The server tells it (`LISTEN`), at once: the default. Needs a
    /// connection of its own to the server, or through PgBouncer in session pooling.
    case listen
    /// It looks at the change log's newest id every `seconds`. Needs no
    /// session of its own, so stations can share server connections through
    /// PgBouncer's transaction pooling; a change arrives within `seconds`.
    case poll(seconds: Double)

    /// How often `poll` looks when `poll_interval` is not given.
    public static let standardPollSeconds = 1.0
}
