import SwitchboardCore

/// The `[git]` settings: whose name and email commits carry. The
/// `Configuration` module reads them from config.toml.
///
/// ```toml
/// [git]
/// identity_provider = "work"   # a configured provider (or demo)
/// set_identity = false         # default true
/// ```
public struct GitSettings: Hashable, Sendable {
    /// `identity_provider`: the provider whose identity's email commits
    /// carry; nil for the first identity with a verified email.
    public var identityProvider: ProviderID?
    /// `set_identity`: whether `env`, `exec` and a station's hand-off set
    /// git's author and committer (true unless turned off).
    public var setIdentity: Bool

    public init(identityProvider: ProviderID? = nil, setIdentity: Bool = true) {
        self.identityProvider = identityProvider
        self.setIdentity = setIdentity
    }
}

/// Who commits made as an account are by: its name and a verified email.
public struct CommitIdentity: Hashable, Sendable {
    public let name: String
    public let email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// The identity git's author and committer are set to for `account`:
    /// the email of its identity at `settings.identityProvider` when that
    /// one is verified, else of its first identity (oldest link first) with
    /// a verified email; nil when it has none. An email or name that holds a
    /// control character or one of git's delimiters (`<`, `>`) is never used.
    public static func of(_ account: Account, settings: GitSettings) -> CommitIdentity? {
        let name = account.name.trimmingWhitespace
        guard usable(name) else { return nil }
        let verified = account.identities.filter { $0.emailVerified && $0.email.map(usable) == true }
        let chosen = verified.first { $0.provider == settings.identityProvider } ?? verified.first
        return chosen?.email.map { CommitIdentity(name: name, email: $0) }
    }

    /// The four variables git reads, author and committer alike.
    public var variables: [(name: String, value: String)] {
        [("GIT_AUTHOR_NAME", name), ("GIT_AUTHOR_EMAIL", email), ("GIT_COMMITTER_NAME", name), ("GIT_COMMITTER_EMAIL", email)]
    }

    /// The names of `variables`.
    public static let variableNames = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"]

    private static func usable(_ text: String) -> Bool {
        !text.isEmpty && !text.containsTerminalControl && !text.contains("<") && !text.contains(">")
    }
}

private extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
