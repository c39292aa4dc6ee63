/// Whether a sign-in may make a new account or must attach to the active one.
public enum AuthMode: String, Hashable, Sendable, Codable {
    /// Sign in: a known identity switches to its account, an unknown one
    /// makes a new account.
    case signIn
    /// Link: attach the identity to the active account.
    case link
}

/// What the authenticator needs to know about the accounts that exist.
/// The store answers it inside the transaction that applies the decision.
public protocol AccountDirectory {
    /// The account an identity belongs to, if any.
    func accountID(for identity: Identity) throws -> AccountID?
    /// The identities of an account.
    func identities(of account: AccountID) throws -> [Identity]
    /// Accounts holding an identity whose verified email is `email`
    /// (compared case-insensitively).
    func accounts(withVerifiedEmail email: String) throws -> [AccountID]
}

/// What to do with a freshly verified identity.
public enum AuthDecision: Hashable, Sendable {
    /// The identity is known: make its account active. No new account.
    case useExisting(AccountID)
    /// The identity is new: create an account for it (`isNew`).
    case createAccount
    /// Attach the identity to the active account.
    case link(to: AccountID)
    /// The identity belongs to another account than the active one: ask.
    case conflict(AuthConflict)
    /// Nothing can be done: see the reason.
    case refused(AuthRefusal)
}

/// Why the authenticator will not act.
public enum AuthRefusal: Hashable, Sendable, CustomStringConvertible {
    /// Link mode, but nobody is active to link to.
    case nothingToLink
    /// Link mode, but the active account has an identity at these
    /// providers already and the rule (`IdentityRule`) allows one.
    case providerTaken([ProviderID])

    public var description: String {
        switch self {
        case .nothingToLink: "nobody is signed in to link an identity to; sign in first"
        case .providerTaken(let providers):
            "the active account has an identity at \(providers.map(\.rawValue).joined(separator: ", ")) already, "
                + "and an account holds one identity per provider"
        }
    }
}

/// An identity already linked to account `owner` turned up while `active`
/// is active.
public struct AuthConflict: Hashable, Sendable {
    public let identity: Identity
    public let active: AccountID
    public let owner: AccountID
    /// Providers at which both accounts hold an identity: merged, the
    /// account would hold two there, which the rule allows or not.
    public let sharedProviders: [ProviderID]
    /// The rule that decides whether the two may be merged.
    public let rule: IdentityRule

    public init(identity: Identity, active: AccountID, owner: AccountID, sharedProviders: [ProviderID], rule: IdentityRule = .standard) {
        self.identity = identity
        self.active = active
        self.owner = owner
        self.sharedProviders = sharedProviders
        self.rule = rule
    }

    /// Whether the rule lets the two accounts be merged.
    public var canMerge: Bool { mergeRefusal == nil }

    /// The providers for which the rule refuses the merge; nil when it allows it.
    public var mergeRefusal: [ProviderID]? {
        sharedProviders.isEmpty || rule.severalAtOneProvider ? nil : sharedProviders
    }

    /// What merging would mean at the providers both hold, in words (see
    /// `IdentityRule.mergeNote`); nil when they share none.
    public var mergeNote: String? { rule.mergeNote(sharing: sharedProviders) }

    /// The choices to offer, in the order to offer them.
    public var choices: [ConflictChoice] {
        canMerge ? [.merge, .switchAccount, .cancel] : [.switchAccount, .cancel]
    }
}

/// A person's answer to a conflict.
public enum ConflictChoice: String, Hashable, Sendable, Codable, CaseIterable {
    /// Move the other account's identities and data into the active one.
    case merge
    /// Make the other account active instead.
    case switchAccount = "switch"
    /// Stay as you are.
    case cancel
}

/// The decision plus hints for the person.
public struct AuthResolution: Hashable, Sendable {
    public let decision: AuthDecision
    /// Other accounts whose verified email matches the identity's: a hint to
    /// offer ("is this you?"), never a reason to merge.
    public let possibleMatches: [AccountID]
}

/// What applying a conflict choice means for the store.
public enum ConflictAction: Hashable, Sendable {
    /// Merge `source` into `target`, which stays active.
    case merge(source: AccountID, into: AccountID)
    /// Make `owner` active.
    case switchTo(AccountID)
    /// Change nothing.
    case stay
}

/// Errors of conflict resolution.
public enum AuthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Merge chosen although both accounts hold an identity at these
    /// providers and the rule (`IdentityRule`) allows one per provider.
    case mergeRefused([ProviderID])

    public var description: String {
        switch self {
        case .mergeRefused(let providers):
            "cannot merge: both accounts have a different identity at "
                + providers.map(\.rawValue).joined(separator: ", ")
                + ", and an account holds one identity per provider; choose switch or cancel"
        }
    }
}

/// The layer between providers and the app: given who is active,
/// a verified identity and the mode, it decides what happens. It knows no
/// provider by name and does no I/O.
public struct Authenticator: Sendable {
    /// Whether an account may hold several identities at one provider, for
    /// links and merges alike.
    public let rule: IdentityRule

    public init(rule: IdentityRule = .standard) {
        self.rule = rule
    }

    /// Decides what a verified identity means for the session. Throws only
    /// what the directory throws.
    public func decide(
        identity incoming: LinkedIdentity, mode: AuthMode, active: AccountID?,
        directory: some AccountDirectory
    ) throws -> AuthResolution {
        let decision: AuthDecision
        let owner = try directory.accountID(for: incoming.identity)
        switch (owner, active, mode) {
        case (nil, nil, .link):
            decision = .refused(.nothingToLink)
        case (nil, _, .signIn):
            decision = .createAccount
        case (nil, let active?, .link):
            if let taken = rule.refusal(adding: [incoming.identity], to: try directory.identities(of: active)) {
                decision = .refused(.providerTaken(taken))
            } else {
                decision = .link(to: active)
            }
        case (let owner?, nil, _):
            decision = .useExisting(owner)
        case (let owner?, let active?, _) where owner == active:
            decision = .useExisting(owner)
        case (let owner?, let active?, _):
            decision = .conflict(AuthConflict(
                identity: incoming.identity, active: active, owner: owner,
                sharedProviders: IdentityRule.sharedProviders(
                    adding: try directory.identities(of: owner), to: try directory.identities(of: active)),
                rule: rule))
        }
        return AuthResolution(decision: decision, possibleMatches: try hints(for: incoming, decision, directory))
    }

    /// Turns a person's choice into what the store should do.
    public func resolve(_ conflict: AuthConflict, choosing choice: ConflictChoice) throws(AuthError) -> ConflictAction {
        switch choice {
        case .merge:
            if let refused = conflict.mergeRefusal { throw .mergeRefused(refused) }
            return .merge(source: conflict.owner, into: conflict.active)
        case .switchAccount:
            return .switchTo(conflict.owner)
        case .cancel:
            return .stay
        }
    }

    private func hints(
        for incoming: LinkedIdentity, _ decision: AuthDecision, _ directory: some AccountDirectory
    ) throws -> [AccountID] {
        guard incoming.emailVerified, let email = incoming.email, !email.isEmpty else { return [] }
        let resulting: AccountID? =
            switch decision {
            case .useExisting(let id), .link(to: let id): id
            case .conflict(let conflict): conflict.owner
            case .createAccount, .refused: nil
            }
        return try directory.accounts(withVerifiedEmail: email).filter { $0 != resulting }.sorted()
    }
}
