/// The run-time switches of a ``DemoServer``.
///
/// Changes made with ``DemoServer/updateSettings(_:)`` (or `POST /api/settings`)
/// affect device codes issued afterwards: each code keeps the lifetime, interval,
/// `slow_down` budget and deny switch that were in force when it was issued.
/// ``accessTokenLifetime`` is read whenever an access token is issued, and
/// ``rotateRefreshTokens`` whenever a refresh token is used.
public struct DemoSettings: Sendable, Equatable {
    /// Lifetime of a device code, in seconds (`expires_in` of the device authorization response).
    public var expiresIn: Int = 600
    /// Minimum polling interval announced to clients, in seconds.
    public var interval: Int = 5
    /// Answer `slow_down` to the first N polls of each device code.
    public var slowDownPolls: Int = 0
    /// When true, every approval attempt becomes a denial.
    public var denyAll: Bool = false
    /// Lifetime of access tokens, in seconds.
    public var accessTokenLifetime: Int = 3600
    /// When true, each refresh answers with a new refresh token and the one
    /// used stops working (`invalid_grant` if used again); when false, the
    /// refresh token is kept.
    public var rotateRefreshTokens: Bool = false

    /// Creates settings; every parameter defaults to the demo's usual behaviour.
    public init(
        expiresIn: Int = 600,
        interval: Int = 5,
        slowDownPolls: Int = 0,
        denyAll: Bool = false,
        accessTokenLifetime: Int = 3600,
        rotateRefreshTokens: Bool = false
    ) {
        self.expiresIn = expiresIn
        self.interval = interval
        self.slowDownPolls = slowDownPolls
        self.denyAll = denyAll
        self.accessTokenLifetime = accessTokenLifetime
        self.rotateRefreshTokens = rotateRefreshTokens
    }

    /// Code lifetimes allowed: one second to one day.
    public static let codeLifetimes = 1...86_400
    /// Poll intervals allowed, in seconds (0 asks clients for no wait).
    public static let intervals = 0...600
    /// `slow_down` answers allowed per code.
    public static let slowDownBudgets = 0...1_000
    /// Access token lifetimes allowed: one second to 366 days.
    public static let tokenLifetimes = 1...(366 * 86_400)

    /// What is wrong with these settings, naming the field; nil when they are usable.
    public var problem: String? {
        if !Self.codeLifetimes.contains(expiresIn) { return "expiresIn must be \(Self.codeLifetimes.lowerBound)…\(Self.codeLifetimes.upperBound) seconds" }
        if !Self.intervals.contains(interval) { return "interval must be \(Self.intervals.lowerBound)…\(Self.intervals.upperBound) seconds" }
        if !Self.slowDownBudgets.contains(slowDownPolls) { return "slowDownPolls must be \(Self.slowDownBudgets.lowerBound)…\(Self.slowDownBudgets.upperBound)" }
        if !Self.tokenLifetimes.contains(accessTokenLifetime) { return "accessTokenLifetime must be \(Self.tokenLifetimes.lowerBound)…\(Self.tokenLifetimes.upperBound) seconds" }
        return nil
    }
}
