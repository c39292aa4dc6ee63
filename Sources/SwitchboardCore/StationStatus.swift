/// What a station of the fleet is doing at a moment, from what it reported:
/// the one rule `switchboard fleet` prints and the board draws.
public enum StationStatus: Hashable, Sendable {
    /// Someone is active there.
    case inUse
    /// Someone is active, but idle past the station's limit: the station
    /// signs them out in `secondsLeft`.
    case countdown(secondsLeft: Int)
    /// Nobody is active.
    case idle
    /// Its hand-off command runs for the person there.
    case handOff
    /// A wrong PIN given there locked the account it was asked for, until then.
    case lockedOut(until: Moment)
    /// It stopped, or missed its heartbeats.
    case offline

    /// What a station reported, as the rule needs it.
    public struct Facts: Hashable, Sendable {
        /// Whether its session acts as someone.
        public var signedIn: Bool
        public var handOffRunning: Bool
        /// From when it counts as offline: its stop, or its heartbeat plus the beats it may miss.
        public var offlineFrom: Moment
        /// Until when its session is locked out, if it is.
        public var lockedUntil: Moment?
        /// Its last key (to the minute), or its start before any.
        public var lastKey: Moment

        public init(signedIn: Bool, handOffRunning: Bool, offlineFrom: Moment, lockedUntil: Moment?, lastKey: Moment) {
            self.signedIn = signedIn
            self.handOffRunning = handOffRunning
            self.offlineFrom = offlineFrom
            self.lockedUntil = lockedUntil
            self.lastKey = lastKey
        }
    }

    /// The status at `now`. With `idleLimit` (the kiosk's idle timeout and
    /// countdown, in seconds), someone idle past the timeout shows the
    /// countdown to their sign-out.
    public static func of(_ facts: Facts, at now: Moment, idleLimit: (timeout: Double, countdown: Double)? = nil) -> StationStatus {
        if now > facts.offlineFrom { return .offline }
        if let until = facts.lockedUntil, until > now { return .lockedOut(until: until) }
        if facts.signedIn, let idleLimit {
            let idle = facts.lastKey.distance(to: now)
            if idle >= idleLimit.timeout, idle < idleLimit.timeout + idleLimit.countdown {
                return .countdown(secondsLeft: Int((idleLimit.timeout + idleLimit.countdown - idle).rounded(.up)))
            }
        }
        if facts.handOffRunning { return .handOff }
        return facts.signedIn ? .inUse : .idle
    }

    /// The words `fleet` prints: `in use`, `idle`, `running the hand-off`,
    /// `locked out`, `offline`, `sign-out in 12s`.
    public var words: String {
        switch self {
        case .inUse: "in use"
        case .countdown(let left): "sign-out in \(left)s"
        case .idle: "idle"
        case .handOff: "running the hand-off"
        case .lockedOut: "locked out"
        case .offline: "offline"
        }
    }

    /// How far a station's clock is from the fleet's (the server's), as a
    /// station's screen and the board say it: `61 s ahead of the server's`.
    public static func clockDistance(_ skew: Double) -> String {
        "\(Int(abs(skew).rounded())) s \(skew > 0 ? "ahead of" : "behind") the server's"
    }

    /// A span of seconds as people read it: `42s`, `5m`, `3h 20m`, `2d 4h`.
    public static func span(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(max(0, seconds))s"
        case ..<3600: "\(seconds / 60)m"
        case ..<86_400: "\(seconds / 3600)h \(seconds % 3600 / 60)m"
        default: "\(seconds / 86_400)d \(seconds % 86_400 / 3600)h"
        }
    }
}
