/// The name of a provider as Switchboard knows it: `github`, `google`, `demo`,
/// or an operator's own name for an OpenID Connect issuer (`work`).
public struct ProviderID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (a: ProviderID, b: ProviderID) -> Bool { a.rawValue < b.rawValue }
}

/// Who a person is at one provider: the provider plus the provider's stable
/// user id (GitHub's numeric `id`, OIDC `sub`). Never an email or a login name.
public struct Identity: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var provider: ProviderID
    public var subject: String

    public init(provider: ProviderID, subject: String) {
        self.provider = provider
        self.subject = subject
    }

    /// Parses `provider:subject`, the form the CLI accepts and prints.
    /// The subject may itself contain colons; the provider may not, unless
    /// it is an issuer's URL (`https://host[:port]/path:subject`), which
    /// ends at the first colon after its host and port.
    public init?(parsing text: String) {
        guard let colon = Self.separator(in: text) else { return nil }
        let provider = text[..<colon], subject = text[text.index(after: colon)...]
        guard !provider.isEmpty, !subject.isEmpty else { return nil }
        self.init(provider: ProviderID(String(provider)), subject: String(subject))
    }

    /// The colon between provider and subject.
    private static func separator(in text: String) -> String.Index? {
        guard let (scheme, rest) = ProviderID.splitScheme(text), ["https", "http"].contains(scheme.lowercased()) else {
            return text.firstIndex(of: ":")
        }
        var index = rest.firstIndex { $0 == ":" || $0 == "/" } ?? text.endIndex
        if index < text.endIndex, text[index] == ":" {
            // A port: digits then a path or the separator.
            let digits = text[text.index(after: index)...].prefix { ("0"..."9").contains($0) }
            if !digits.isEmpty, digits.endIndex < text.endIndex { index = digits.endIndex }
        }
        return text[index...].firstIndex(of: ":")
    }

    /// `provider:subject`.
    public var description: String { "\(provider.rawValue):\(subject)" }

    public static func < (a: Identity, b: Identity) -> Bool {
        (a.provider, a.subject) < (b.provider, b.subject)
    }
}

/// What the last check of an identity's credentials found.
public enum CredentialState: String, Sendable, Codable, CaseIterable {
    /// The provider holds valid credentials: the identity is *available*.
    case authorized
    /// The access token ran out and could not be refreshed yet.
    case expired
    /// The provider revoked the grant; signing in again is the only way back.
    case revoked
    /// The provider no longer knows this user.
    case notFound

    /// Whether the identity can be used to act without signing in again.
    public var isAvailable: Bool { self == .authorized }
}

/// An identity with what the provider told us about the person behind it.
/// Names and emails are display data only; they never decide anything.
public struct LinkedIdentity: Hashable, Sendable, Codable {
    public var identity: Identity
    public var displayName: String?
    public var email: String?
    public var emailVerified: Bool
    public var state: CredentialState
    /// The name the person signs in to the provider's own services with
    /// (GitHub's `login`, OpenID Connect's `preferred_username`), when the
    /// provider said: git is given it as the username with a token.
    public var login: String?

    public init(
        identity: Identity, displayName: String? = nil, email: String? = nil,
        emailVerified: Bool = false, state: CredentialState = .authorized, login: String? = nil
    ) {
        self.identity = identity
        self.displayName = displayName
        self.email = email
        self.emailVerified = emailVerified
        self.state = state
        self.login = login
    }

    public var provider: ProviderID { identity.provider }

    /// Which identity it is, as people tell it from the others: its email,
    /// else its name, else its subject.
    public var label: String { email ?? displayName ?? identity.subject }
}
