import SwitchboardCore

/// Who a command acts as here, and what chose them, by one precedence for
/// every command that acts as someone (`token`, `env`, `exec`,
/// `git-credential`, `kube-credential`, `status`, the shell hook):
/// `--account`, else `SWITCHBOARD_ACCOUNT` in the environment (unless the
/// hook put it there), else a trusted directory rule, else the terminal's
/// choice (the session's active account), else nobody.
///
/// A rule never writes the session: it is in force while a command runs
/// in its tree. A rule not yet trusted, changed since, or unreadable is
/// not applied; `notices` say so.
struct AccountChoice: Sendable, Equatable {
    /// What chose the account.
    enum Source: Sendable, Equatable {
        /// `--account`.
        case option
        /// `SWITCHBOARD_ACCOUNT`, set by the person (or `exec`).
        case environment
        /// A trusted directory rule.
        case rule(DirectoryRule, DirectoryRule.Named)
        /// The session's active account (or nobody).
        case terminal
    }

    let source: Source
    /// The account named; nil for the session's active one.
    let query: String?
    /// Rules found here and not applied, in words, one a line.
    let notices: [String]

    /// Whether someone other than the session's choice was named: using
    /// their tokens takes their PIN, as a switch would.
    var namesSomeone: Bool { source != .terminal }

    /// `SWITCHBOARD_ACCOUNT` when the person (or `exec`) set it: the value
    /// the hook keeps current (it sets `SWITCHBOARD_HOOK_ACCOUNT` alike) is
    /// the hook's own choice, made from the rest of the precedence, and
    /// gives way to it, so `switch NAME && git push` acts as NAME at once.
    static func explicitAccount(in environment: [String: String]) -> String? {
        guard let value = environment["SWITCHBOARD_ACCOUNT"], !value.isEmpty, value != environment["SWITCHBOARD_HOOK_ACCOUNT"] else { return nil }
        return value
    }

    /// Decides by the precedence, for `providers` (the rule's own entry for
    /// the first of them it names wins over its `account`; none: `account`).
    static func decide(
        option: String?, environment: [String: String], found: DirectoryRules.Found, trust: RuleTrust, providers: [ProviderID] = [],
        home: String
    ) -> AccountChoice {
        if let option { return AccountChoice(source: .option, query: option, notices: []) }
        if let named = explicitAccount(in: environment) { return AccountChoice(source: .environment, query: named, notices: []) }
        switch found {
        case .none:
            return AccountChoice(source: .terminal, query: nil, notices: [])
        case .broken(let error):
            return AccountChoice(source: .terminal, query: nil, notices: ["\(error.description) (the rule is not applied)"])
        case .rule(let rule):
            let named = providers.lazy.compactMap { rule.providers[$0.rawValue] }.first ?? rule.account
            guard let named else { return AccountChoice(source: .terminal, query: nil, notices: []) }
            switch trust.verdict(on: rule) {
            case .allowed: return AccountChoice(source: .rule(rule, named), query: named.query, notices: [])
            case .denied: return AccountChoice(source: .terminal, query: nil, notices: [])
            case .unknown(let changed):
                let place = rule.place(home: home)
                return AccountChoice(source: .terminal, query: nil, notices: [
                    "\(place) names \(String(reflecting: named.query)) but is \(changed ? "changed since it was allowed" : "not allowed yet"), "
                        + "so it is not applied: `switchboard allow` applies it, `switchboard deny` keeps it off and quiet"
                ])
            }
        }
    }

    /// What chose the account, for people: `~/work/.switchboard line 2`,
    /// `SWITCHBOARD_ACCOUNT in the environment`, `this terminal's choice`.
    func reason(home: String) -> String {
        switch source {
        case .option: "--account"
        case .environment: "SWITCHBOARD_ACCOUNT in the environment"
        case .rule(let rule, let named): rule.place(of: named, home: home)
        case .terminal: "this terminal's choice"
        }
    }

    /// The short tag a prompt shows after the name: nothing for the
    /// terminal's own choice, `dir` for a rule, `env` for the environment.
    var tag: String? {
        switch source {
        case .option, .terminal: nil
        case .environment: "env"
        case .rule: "dir"
        }
    }
}

extension CommandContext {
    /// Who this invocation acts as (see `AccountChoice`): `option` is
    /// `--account`; `providers`, those a tool needs a token of. Rules are
    /// looked for from `io.workingDirectory`.
    func accountChoice(option: String?, providers: [ProviderID] = []) -> AccountChoice {
        let environment = io.environment
        let home = HomeDirectory.path(environment: environment)
        // Nothing below --account and the environment is looked for when they decide.
        let found: DirectoryRules.Found =
            option != nil || AccountChoice.explicitAccount(in: environment) != nil
            ? .none : DirectoryRules.find(from: io.workingDirectory, home: home, environment: environment)
        return AccountChoice.decide(
            option: option, environment: environment, found: found, trust: RuleTrust(environment: environment), providers: providers,
            home: home)
    }
}
