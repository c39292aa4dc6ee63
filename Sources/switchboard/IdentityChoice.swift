import SwitchboardCore

/// Which of an account's identities a person names: a provider (its only
/// identity there), or one identity as `provider:login` or
/// `provider:subject`, for an account with two at one provider (a work and
/// a personal GitHub). `token`, `env --provider`, `exec --provider` and
/// `disconnect` read their argument so.
enum IdentityChoice {
    /// Why none could be picked.
    enum Problem: Error, Equatable {
        /// Nothing of the account's matches.
        case none(has: [String])
        /// Several at the provider: each as the name that picks it.
        case several(provider: String, names: [String])
    }

    /// The identity of `identities` that `name` picks.
    static func pick(_ name: String, among identities: [LinkedIdentity]) -> Result<LinkedIdentity, Problem> {
        if let named = Identity(parsing: name) {
            let atProvider = identities.filter { $0.provider == named.provider }
            if let exact = atProvider.first(where: { $0.identity.subject == named.subject }) { return .success(exact) }
            let byLogin = atProvider.filter { $0.login?.lowercased() == named.subject.lowercased() }
            if byLogin.count == 1 { return .success(byLogin[0]) }
        }
        let atProvider = identities.filter { $0.provider.rawValue == name }
        switch atProvider.count {
        case 1: return .success(atProvider[0])
        case 0: return .failure(.none(has: identities.map { shortName(of: $0, among: identities) }))
        default: return .failure(.several(provider: name, names: atProvider.map { shortName(of: $0, among: identities) }))
        }
    }

    /// The identity of `identities` at the `serving` providers that a tool
    /// (git) gets a token of, and the others there: the one whose login is
    /// `username` (the tool's, from `LOGIN@` in a URL or git's
    /// `credential.username`) when one is; else the first that may still
    /// work (not known revoked or gone); else the first. A username that is
    /// no login here (`oauth2`, `x-access-token`) picks nothing. Nil when
    /// none is at those providers.
    static func forTool(
        serving: [ProviderID], among identities: [LinkedIdentity], username: String?
    ) -> (chosen: LinkedIdentity, others: [LinkedIdentity])? {
        let there = identities.filter { serving.contains($0.provider) }
        let named = username.flatMap { name in there.first { $0.login?.lowercased() == name.lowercased() } }
        guard let chosen = named ?? there.first(where: { $0.state == .authorized || $0.state == .expired }) ?? there.first else { return nil }
        return (chosen, there.filter { $0.identity != chosen.identity })
    }

    /// The provider a name is at: `github` for `github`, `github:ada-work`.
    static func provider(of name: String) -> ProviderID {
        Identity(parsing: name)?.provider ?? ProviderID(name)
    }

    /// How to name `identity` among `identities`: its provider when it is the
    /// only one there, else `provider:login` (the subject when the login is
    /// missing or shared).
    static func shortName(of identity: LinkedIdentity, among identities: [LinkedIdentity]) -> String {
        let atProvider = identities.filter { $0.provider == identity.provider }
        guard atProvider.count > 1 else { return identity.provider.rawValue }
        if let login = identity.login, atProvider.filter({ $0.login?.lowercased() == login.lowercased() }).count == 1 {
            return "\(identity.provider):\(login)"
        }
        return identity.identity.description
    }
}
