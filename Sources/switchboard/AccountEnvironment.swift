import DeviceFlow
import Foundation
import SwitchboardCore
import ToolCredentials

/// The environment variables that describe an account, for `env` and
/// `exec`. Each managed variable is either set (a value) or to be unset (nil),
/// so that evaluating `env` after switching accounts leaves nothing of the
/// previous account behind.
struct AccountEnvironment {
    /// The variables, in the order they are printed; nil means unset.
    private(set) var variables: [(name: String, value: String?)] = []

    /// `SWITCHBOARD_ACCOUNT` (the id), `SWITCHBOARD_ACCOUNT_NAME` and
    /// `SWITCHBOARD_SESSION`; the first two unset with no account, the
    /// last unset for the machine-wide default session (which cannot be
    /// named in `SWITCHBOARD_SESSION`).
    init(account: Account?, session: SessionKey) {
        variables = [
            ("SWITCHBOARD_ACCOUNT", account.map { String($0.id.rawValue) }),
            ("SWITCHBOARD_ACCOUNT_NAME", account?.name),
            ("SWITCHBOARD_SESSION", session == .machine ? nil : session.rawValue),
        ]
    }

    /// Adds git's author and committer (`GIT_AUTHOR_NAME`, `_EMAIL`,
    /// `GIT_COMMITTER_NAME`, `_EMAIL`) from `account`'s verified email
    /// (`CommitIdentity`), unset when it has none or there is no account,
    /// so commits never carry the last person's name; nothing at all with
    /// `set_identity = false`.
    mutating func addCommitIdentity(of account: Account?, settings: GitSettings) {
        guard settings.setIdentity else { return }
        let identity = account.flatMap { CommitIdentity.of($0, settings: settings) }
        let values = Dictionary(uniqueKeysWithValues: identity?.variables.map { ($0.name, $0.value) } ?? [])
        for name in CommitIdentity.variableNames { variables.append((name, values[name])) }
    }

    /// Adds the token variables: each of `tokens` under its provider's name,
    /// and unset, every other name a provider of `configuration` (or of
    /// `tokens`) would use and every well-known name.
    mutating func addTokens(_ tokens: [(provider: ProviderID, token: String)], configuration: ProviderConfiguration) {
        let names = TokenVariables.names(
            for: Set(configuration.providers.map(\.id) + tokens.map(\.provider)).sorted { $0.rawValue < $1.rawValue },
            kind: { configuration.provider($0)?.kind ?? ProviderKind(rawValue: $0.rawValue) })
        let values = Dictionary(tokens.map { (names[$0.provider]!, $0.token) }) { first, _ in first }
        let all = Set(names.values).union(ProviderKind.allCases.compactMap(TokenVariables.wellKnown))
        for name in all.sorted() { variables.append((name, values[name])) }
    }

    /// What `exec` gives a command run as `account`: `base` (its own
    /// environment) with the account's variables, its commit identity
    /// (`addCommitIdentity`) and `tokens` (see `addTokens`).
    static func forCommand(
        account: Account, session: SessionKey, configuration: ProviderConfiguration, git: GitSettings,
        tokens: [(provider: ProviderID, token: String)], base: [String: String]
    ) -> [String: String] {
        var variables = AccountEnvironment(account: account, session: session)
        // The account is the command's own choice, not the hook's: it wins over any rule where the command goes.
        variables.variables.append(("SWITCHBOARD_HOOK_ACCOUNT", nil))
        variables.addCommitIdentity(of: account, settings: git)
        variables.addTokens(tokens, configuration: configuration)
        return variables.applied(to: base)
    }

    /// The names this environment manages.
    var names: [String] { variables.map(\.name) }

    /// `env --json`: every managed variable, null when unset.
    var dictionary: [String: String?] { Dictionary(variables.map { ($0.name, $0.value) }) { first, _ in first } }

    /// Assignments to evaluate in `shell`, one a line.
    func script(for shell: ShellSyntax) -> String {
        variables.map { variable in variable.value.map { shell.set(variable.name, $0) } ?? shell.unset(variable.name) }
            .joined(separator: "\n") + "\n"
    }

    /// `base` without any managed variable, plus those that are set.
    func applied(to base: [String: String]) -> [String: String] {
        var result = base.filter { !names.contains($0.key) }
        for (name, value) in variables { if let value { result[name] = value } }
        return result
    }
}

/// Which variable a provider's access token goes in: the one its tools read.
enum TokenVariables {
    /// The name tools read for a kind of provider, if there is one: `GH_TOKEN`
    /// (GitHub's `gh`), `GITLAB_TOKEN` (GitLab's `glab`),
    /// `GOOGLE_OAUTH_ACCESS_TOKEN` (Google's Terraform provider), and
    /// `SWITCHBOARD_DEMO_TOKEN` for Demo. Microsoft and OpenID Connect
    /// issuers have none; they use `generic`.
    static func wellKnown(_ kind: ProviderKind) -> String? {
        switch kind {
        case .github: "GH_TOKEN"
        case .gitlab: "GITLAB_TOKEN"
        case .google: "GOOGLE_OAUTH_ACCESS_TOKEN"
        case .demo: "SWITCHBOARD_DEMO_TOKEN"
        case .microsoft, .oidc: nil
        }
    }

    /// `SWITCHBOARD_TOKEN_<PROVIDER ID>`, upper-cased, each character other
    /// than an ASCII letter or digit as `_`.
    static func generic(_ provider: ProviderID) -> String {
        "SWITCHBOARD_TOKEN_" + String(provider.rawValue.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) ? Character(scalar).uppercased() : "_"
        }.joined())
    }

    /// The variable of each provider. When several providers of one kind
    /// would share its well-known name, it goes to the one whose id is the
    /// kind's name (`github`), else to the first by id; the others use
    /// `generic`, as do providers whose kind is unknown.
    static func names(for providers: [ProviderID], kind: (ProviderID) -> ProviderKind?) -> [ProviderID: String] {
        var names: [ProviderID: String] = [:]
        let claimants = Dictionary(grouping: providers.compactMap { id in kind(id).flatMap(wellKnown).map { (id, $0) } }, by: \.1)
        for (name, group) in claimants {
            let ids = group.map(\.0).sorted { $0.rawValue < $1.rawValue }
            let owner = ids.first { kind($0)?.rawValue == $0.rawValue } ?? ids[0]
            names[owner] = name
        }
        for provider in providers where names[provider] == nil { names[provider] = generic(provider) }
        return names
    }
}

/// How a shell sets and unsets an exported variable, with values quoted so
/// that nothing in them (quotes, `$`, backticks, newlines) is run.
enum ShellSyntax: String, CaseIterable {
    case bash, zsh, sh, fish

    /// The shell of `$SHELL` when it is one of these, else POSIX syntax.
    static func fromEnvironment(_ environment: [String: String]) -> ShellSyntax {
        let name = (environment["SHELL"] ?? "").split(separator: "/").last.map(String.init) ?? ""
        return ShellSyntax(rawValue: name) ?? .sh
    }

    func set(_ name: String, _ value: String) -> String {
        switch self {
        case .bash, .zsh, .sh: "export \(name)=\(Self.posixQuoted(value))"
        case .fish: "set -gx \(name) \(Self.fishQuoted(value))"
        }
    }

    func unset(_ name: String) -> String {
        switch self {
        case .bash, .zsh, .sh: "unset \(name)"
        case .fish: "set -e \(name)"
        }
    }

    /// Single quotes, each `'` written as `\'` outside them; no empty
    /// quoted pieces (`''`), which zsh's RC_QUOTES would read as a quote.
    static func posixQuoted(_ value: String) -> String {
        guard !value.isEmpty else { return "''" }
        return value.split(separator: "'", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "'\($0)'" }
            .joined(separator: "\\'")
    }

    /// fish's single quotes, where only `\\` and `\'` are escapes.
    static func fishQuoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
