/// Something a signed-in person can do. Panes ask for features, never for
/// provider names.
public struct Feature: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Has a name and picture to show.
    public static let profile: Feature = "profile"
    /// Has an email address.
    public static let email: Feature = "email"
    /// Can keep favourites in the guide.
    public static let favourites: Feature = "favourites"
    /// Can hand out an access token for scripts (`switchboard token`).
    public static let apiToken: Feature = "apiToken"
    /// Has source repositories (GitHub, GitLab).
    public static let repositories: Feature = "repositories"
    /// Has a calendar and mail (Google, Microsoft).
    public static let calendar: Feature = "calendar"
}

/// Which features each provider brings. Built by the provider catalogue;
/// the core only takes unions.
public struct FeatureCatalog: Sendable {
    private var byProvider: [ProviderID: Set<Feature>]

    public init(_ byProvider: [ProviderID: Set<Feature>] = [:]) { self.byProvider = byProvider }

    public func features(of provider: ProviderID) -> Set<Feature> { byProvider[provider] ?? [] }

    /// The union of the features of the providers of the account's available
    /// identities. A revoked identity brings nothing.
    public func features(of account: Account) -> Set<Feature> {
        account.identities.filter(\.state.isAvailable)
            .reduce(into: Set<Feature>()) { $0.formUnion(features(of: $1.provider)) }
    }

    /// Features for the anonymous user: none.
    public func features(of active: ActiveAccount) -> Set<Feature> {
        active.account.map { features(of: $0) } ?? []
    }
}
