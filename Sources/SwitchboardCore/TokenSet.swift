/// The tokens a provider issued for an identity. Secret: its descriptions
/// are redacted, so it can't leak through logs or string interpolation.
public struct TokenSet: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var accessToken: String
    public var refreshToken: String?
    public var idToken: String?
    /// `Bearer` in whatever case the provider wrote it.
    public var tokenType: String
    public var scope: String?
    /// When the access token stops working, if the provider said.
    public var expiresAt: Moment?

    public init(
        accessToken: String, refreshToken: String? = nil, idToken: String? = nil, tokenType: String = "Bearer",
        scope: String? = nil, expiresAt: Moment? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.tokenType = tokenType
        self.scope = scope
        self.expiresAt = expiresAt
    }

    /// Whether the access token has run out at `moment` (30 s early, so it is
    /// never used in its last seconds).
    public func isExpired(at moment: Moment) -> Bool {
        guard let expiresAt else { return false }
        return moment.distance(to: expiresAt) < 30
    }

    public var description: String { "TokenSet(redacted)" }
    public var debugDescription: String { description }
}
