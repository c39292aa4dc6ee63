/// Whether an account may hold more than one identity at one provider: the
/// one rule that linking an identity and merging two accounts both follow,
/// so that nothing one of them makes, the other refuses.
public struct IdentityRule: Hashable, Sendable {
    /// Whether one account may hold several identities at one provider.
    public let severalAtOneProvider: Bool

    public init(severalAtOneProvider: Bool) {
        self.severalAtOneProvider = severalAtOneProvider
    }

    /// Switchboard's rule: an account may hold several identities at one
    /// provider (a work and a personal GitHub, say). Each keeps its own
    /// tokens and is shown with its login or email.
    public static let standard = IdentityRule(severalAtOneProvider: true)

    /// The providers at which an account holding `held` would hold more than
    /// one identity once `joining` are added to it, each once, sorted.
    public static func sharedProviders(adding joining: [Identity], to held: [Identity]) -> [ProviderID] {
        let mine = Set(held.map(\.provider))
        return Set(joining.filter { !held.contains($0) }.map(\.provider)).intersection(mine).sorted()
    }

    /// The one decision: nil when an account holding `held` may take
    /// `joining` too (by a link, or by a merge of their accounts); else the
    /// providers at which the rule refuses a second identity.
    public func refusal(adding joining: [Identity], to held: [Identity]) -> [ProviderID]? {
        let shared = Self.sharedProviders(adding: joining, to: held)
        return severalAtOneProvider || shared.isEmpty ? nil : shared
    }

    /// The rule in words, for the dialogs and messages that apply it.
    public var sentence: String {
        severalAtOneProvider
            ? "An account may hold several identities at one provider; each keeps its own tokens."
            : "An account holds one identity per provider."
    }

    /// What merging means at `providers`, where both accounts hold an
    /// identity: kept side by side, or refused. Nil when they share none.
    public func mergeNote(sharing providers: [ProviderID]) -> String? {
        guard !providers.isEmpty else { return nil }
        let names = providers.map(\.rawValue).joined(separator: ", ")
        return severalAtOneProvider
            ? "Both accounts have an identity at \(names); merged, the account keeps both. \(sentence)"
            : "Both accounts have an identity at \(names), so they cannot be merged. \(sentence)"
    }
}

extension LinkedIdentity {
    /// The name the person knows this identity by at its provider: its
    /// login, else its email, else its subject. Display data only.
    public var handle: String {
        if let login, !login.isEmpty { return login }
        if let email, !email.isEmpty { return email }
        return identity.subject
    }
}

/// What tells two identities of one provider apart where they are shown.
public enum IdentityNames {
    /// For each identity that shares its provider with another in
    /// `identities`, the name to show after the provider: its `handle`, or
    /// its subject where two of one provider have the same handle. An
    /// identity alone at its provider has no entry: it stays as short as
    /// its provider.
    public static func distinguishing(_ identities: [LinkedIdentity]) -> [Identity: String] {
        var byProvider: [ProviderID: [LinkedIdentity]] = [:]
        for identity in identities { byProvider[identity.provider, default: []].append(identity) }
        var names: [Identity: String] = [:]
        for group in byProvider.values where group.count > 1 {
            var seen: [String: Int] = [:]
            for identity in group { seen[identity.handle.lowercased(), default: 0] += 1 }
            for identity in group {
                names[identity.identity] = seen[identity.handle.lowercased()]! > 1 ? identity.identity.subject : identity.handle
            }
        }
        return names
    }

    /// "demo" for an identity alone at its provider; "demo ada" where the
    /// account has another demo identity (see `distinguishing`).
    public static func label(_ identity: LinkedIdentity, among identities: [LinkedIdentity]) -> String {
        distinguishing(identities)[identity.identity].map { "\(identity.provider.rawValue) \($0)" } ?? identity.provider.rawValue
    }
}

/// What is stored of an identity's tokens that is no secret: when the
/// access token runs out, and the scopes granted. Never a token.
public struct TokenFacts: Hashable, Sendable {
    /// When the access token stops working, if the provider said.
    public var expiresAt: Moment?
    /// The scopes granted, as the provider listed them (space-separated).
    public var scope: String?

    public init(expiresAt: Moment? = nil, scope: String? = nil) {
        self.expiresAt = expiresAt
        self.scope = scope
    }

    /// The scopes, each once, in the provider's order.
    public var scopes: [String] {
        var seen: Set<String> = []
        return (scope ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init).filter { seen.insert($0).inserted }
    }

    /// "expires in 52 min", "expired 3 min ago", "no expiry given"; for no
    /// facts at all (nil), "no token stored".
    public static func expiry(_ facts: TokenFacts?, now: Moment) -> String {
        guard let facts else { return "no token stored" }
        guard let expiresAt = facts.expiresAt else { return "no expiry given" }
        let seconds = now.distance(to: expiresAt)
        return seconds > 0 ? "expires in \(span(seconds))" : "expired \(span(-seconds)) ago"
    }

    /// A span of time in its largest whole unit: "40 s", "52 min", "3 h", "2 d".
    public static func span(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "a long time" }
        let whole = Int(max(0, seconds).rounded(.down))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min" }
        if whole < 86_400 { return "\(whole / 3600) h" }
        return "\(whole / 86_400) d"
    }
}

/// An identity's facts in words, as the GitHub CLI's `auth status` gives
/// them: provider, login, subject, state, token expiry, scopes. Never a token.
public enum IdentityFacts {
    /// "login ada" (else "email ada@example.org"), "subject ada", "ok",
    /// "expires in 52 min", "scopes openid profile": each fact known, in
    /// that order, after the provider (and the name that tells the
    /// identity from another of its provider, `IdentityNames`).
    public static func words(_ identity: LinkedIdentity, facts: TokenFacts?, now: Moment) -> [String] {
        var words: [String] = []
        if let login = identity.login, !login.isEmpty {
            words.append("login \(login)")
        } else if let email = identity.email, !email.isEmpty {
            words.append("email \(email)")
        }
        words.append("subject \(identity.identity.subject)")
        words.append(identity.state.word)
        words.append(TokenFacts.expiry(facts, now: now))
        let scopes = facts?.scopes ?? []
        if !scopes.isEmpty { words.append("scopes " + scopes.joined(separator: " ")) }
        return words
    }

    /// "demo: login ada, subject ada, ok, expires in 52 min, scopes openid
    /// profile", through the terminal filter.
    public static func line(_ identity: LinkedIdentity, facts: TokenFacts?, now: Moment) -> String {
        (identity.provider.rawValue + ": " + words(identity, facts: facts, now: now).joined(separator: ", ")).displaySafe
    }
}

extension CredentialState {
    /// The mark every list shows an identity with: ✓ available, ⚠ expired,
    /// ✗ revoked or gone; the chooser's rows and `switchboard accounts` alike.
    public var mark: String {
        switch self {
        case .authorized: "✓"
        case .expired: "⚠"
        case .revoked, .notFound: "✗"
        }
    }

    /// The word people read for the state: ok, expired, revoked, gone.
    public var word: String {
        switch self {
        case .authorized: "ok"
        case .expired: "expired"
        case .revoked: "revoked"
        case .notFound: "gone"
        }
    }
}

extension Account {
    /// How the account's `identity` is named where it is shown: its
    /// provider, with its login or email when the account has another
    /// identity at that provider (`IdentityNames.label`).
    public func label(of identity: Identity) -> String {
        identities.first { $0.identity == identity }.map { IdentityNames.label($0, among: identities) } ?? identity.provider.rawValue
    }

    /// Whether no identity of the account can be used until someone signs
    /// in again: every one was revoked (or its user is gone at the
    /// provider), and at least one was revoked, so a sign-in can bring it back.
    public var needsSignInAgain: Bool {
        !identities.isEmpty && identities.allSatisfy { $0.state == .revoked || $0.state == .notFound }
            && identities.contains { $0.state == .revoked }
    }

    /// The identities a sign-in again would bring back: the revoked ones.
    public var revokedIdentities: [LinkedIdentity] { identities.filter { $0.state == .revoked } }
}
