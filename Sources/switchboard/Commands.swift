import ArgumentParser
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore
import ToolCredentials

struct AccountsCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List accounts, most recently used first; ● marks the active one, 🔒 one with a PIN.")

    @OptionGroup var options: CommonOptions

    @Flag(name: [.short, .long], help: "Also each identity's login, subject, state, token expiry and scopes (never a token).")
    var verbose = false

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey()
        try io.reportingErrors { () throws(StoreError) in
            let database = try context.openDatabase(.readOnlyIfUnwritable)
            let active = try database.active(in: session).id
            let details = verbose ? AccountsOutput.Details(facts: try database.tokenFacts(), now: .now()) : nil
            // Written as read: a page of accounts in memory at a time, whatever the roster's size.
            var output = AccountsOutput(to: io.stdout, json: options.json, details: details)
            let protected = try database.protectedAccounts()
            try database.forEachAccount { output.add($0, active: $0.id == active, protected: protected.contains($0.id)) }
            output.finish()
        }
    }
}

struct StatusCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show who this session acts as; --check re-checks every stored credential with its provider.")

    @OptionGroup var options: CommonOptions

    @Flag(name: .long, help: "Ask each provider whether the stored credentials still work (refreshing expired ones).")
    var check = false

    @Flag(name: .long, help: "Keep running: print a line each time who this session acts as changes, from any program.")
    var watch = false

    @Flag(name: .long, help: "With --watch: print changes of every session, not only this one.")
    var all = false

    func validate() throws {
        if all && !watch { throw ValidationError("--all goes with --watch") }
        if check && watch { throw ValidationError("--check and --watch do not go together") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey()
        let configuration = try context.configuration()
        let database: AppDatabase
        // Without --check, status only reads.
        do { database = try context.openDatabase(check ? .readWrite : .readOnlyIfUnwritable) } catch {
            throw io.fail(error.description, ExitStatus(error))
        }
        if watch {
            do { try await StatusWatch.run(database: database, session: session, all: all, json: options.json) } catch {
                throw io.fail("\(error)", (error as? StoreError).map(ExitStatus.init) ?? .failure)
            }
        }
        var checks: [CheckReport] = []
        if check {
            let providers = ProviderDirectory(configuration: configuration.providers, transport: URLSessionTransport())
            do { checks = try await CredentialCheck(database: database, providers: providers, bus: nil).run() } catch {
                throw io.fail(error.description, ExitStatus(error))
            }
        }
        let choice = context.accountChoice(option: nil)
        for notice in choice.notices { io.stderr.write("switchboard: \(notice.displaySafe)\n") }
        let home = HomeDirectory.path(environment: io.environment)
        var chosen: Account?
        if let query = choice.query {
            do { chosen = try database.findAccount(query) } catch { throw io.fail("\(choice.reason(home: home)): \(error.description)", ExitStatus(error)) }
        }
        try io.reportingErrors { () throws(StoreError) in
            let own = try database.active(in: session)
            let active = chosen.map(ActiveAccount.account) ?? own
            if options.json {
                return check ? io.printJSON(CheckedStatusJSON(status: StatusJSON(session: session, active: active), checks: checks))
                    : io.printJSON(ChosenStatusJSON(status: StatusJSON(session: session, active: active), choice: choice, home: home))
            }
            for report in checks {
                var state = report.state.map(\.rawValue) ?? "unknown (\((report.problem ?? "not checked").displaySafe))"
                // A demo provider that is not running knows nothing: say how to start one.
                if report.state == nil, report.problem != "no stored credentials", configuration.providers.provider(report.identity.provider)?.kind == .demo {
                    state += "; is the demo provider running? Start it with `switchboard demo serve` (its tokens end with it, "
                        + "so a restarted one has the identity sign in again)"
                }
                io.print("\(report.identity.description.displaySafe)  \(state)")
                for change in report.signedOut where change.session == session {
                    io.print("  \(report.identity.provider) revoked access, so session \(session) was signed out.")
                }
            }
            io.print(describe(active, in: session) + commits(active.account, configuration.git))
            guard let account = active.account else { return }
            let ownChoice = choice.source == .terminal ? "" : "; this terminal's own choice: \(own.account?.name.displaySafe ?? "nobody")"
            io.print("  chosen by \(choice.reason(home: home).displaySafe)\(ownChoice)")
            let lives = account.identities.map { "\($0.provider) \(TokenLife.describe($0, tokens: try? database.credential(for: $0.identity)))" }
            io.print("  tokens: " + lives.joined(separator: ", "))
        }
    }

    /// Who commits made here are by, after two spaces (a prompt that keeps
    /// the status's first words drops it), when `env` and `exec` set it.
    private func commits(_ account: Account?, _ git: GitSettings) -> String {
        guard let account, git.setIdentity else { return "" }
        guard let identity = CommitIdentity.of(account, settings: git) else { return "  commits: no verified email, so git's own user.email" }
        return "  commits: \(identity.name.displaySafe) <\(identity.email.displaySafe)>"
    }
}

/// `status --json`: the status, what chose the account (`source`:
/// `terminal`, `rule`, `environment`; `chosenBy`: the rule's file and line,
/// or the words `status` prints), null with nobody.
struct ChosenStatusJSON: Encodable {
    let session: String
    @Null var active: StatusJSON.Active?
    let source: String
    @Null var chosenBy: String?

    init(status: StatusJSON, choice: AccountChoice, home: String) {
        session = status.session
        active = status.active
        source = switch choice.source {
        case .option: "option"
        case .environment: "environment"
        case .rule: "rule"
        case .terminal: "terminal"
        }
        chosenBy = status.active == nil ? nil : choice.reason(home: home)
    }
}

/// How long an identity's stored access token has, in words: `52 min left`,
/// `expired (refreshed when used)`, `none stored`; `revoked` when known so.
enum TokenLife {
    static func describe(_ identity: LinkedIdentity, tokens: TokenSet??, now: Date = Date()) -> String {
        if identity.state == .revoked || identity.state == .notFound { return "revoked: sign in again" }
        guard case .some(.some(let tokens)) = tokens else { return "none stored" }
        guard let expiresAt = tokens.expiresAt else { return "does not expire" }
        let left = expiresAt.secondsSince1970 - now.timeIntervalSince1970
        if left <= 0 { return tokens.refreshToken == nil ? "expired: sign in again" : "expired (refreshed when used)" }
        if left < 60 { return "\(Int(left)) s left" }
        if left < 2 * 3600 { return "\(Int(left / 60)) min left" }
        if left < 2 * 86400 { return "\(Int(left / 3600)) h left" }
        return "\(Int(left / 86400)) days left"
    }
}

/// `status --check --json`: the status plus what each check found.
struct CheckedStatusJSON: Encodable {
    struct Check: Encodable {
        let identity: String
        @Null var state: String?
        @Null var problem: String?
        let signedOutSessions: [String]
    }

    let session: String
    @Null var active: StatusJSON.Active?
    let checks: [Check]

    init(status: StatusJSON, checks: [CheckReport]) {
        session = status.session
        active = status.active
        self.checks = checks.map {
            Check(identity: $0.identity.description, state: $0.state?.rawValue, problem: $0.problem,
                  signedOutSessions: $0.signedOut.map(\.session.rawValue))
        }
    }
}

struct SwitchCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "switch", abstract: "Make an account active in this session.",
        discussion: """
            ACCOUNT may be an id, a name or email, a word of a name or the start of one (gra for Grace Hopper), or an \
            identity as provider:login or provider:subject; several matches are listed (exit 3). `switch -` goes back \
            to the account this session had before. With no ACCOUNT, on a terminal, a picker opens (type to filter, \
            Enter to choose, Esc to leave); elsewhere the accounts are listed.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "The account; - for the one before; none to pick one.", completion: .custom(AccountCompletion.accounts))
    var account: String?

    @OptionGroup var pin: PINProofOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        do {
            let target: Account?
            switch account {
            case "-":
                let session = try context.sessionKey(writes: true)
                guard let previous = try context.openDatabase().previousAccount(in: session) else {
                    throw io.fail("session \(session) has no account before this one to go back to", .notFound)
                }
                target = previous
            case nil:
                let session = try context.sessionKey()
                guard io.stdinIsTerminal, io.stdoutIsTerminal else { return try listAccounts(context, session: session) }
                let database = try context.openDatabase()
                var accounts: [Account] = []
                try database.forEachAccount { accounts.append($0) }
                guard !accounts.isEmpty else { throw io.fail("no accounts yet: sign in to add one (switchboard sign-in PROVIDER)", .notFound) }
                let picker = AccountPicker(accounts: accounts, active: try database.active(in: session).id)
                guard case .some(.some(let id)) = TerminalPicker.run(picker) else { throw io.fail("nothing chosen; nothing was changed", .cancelled) }
                target = accounts.first { $0.id == id }
            case let query?:
                _ = try context.sessionKey(writes: true)
                target = try context.openDatabase().findAccount(query)
            }
            try make(target, active: context, io: io)
        } catch let error as StoreError {
            throw io.fail(error.description, ExitStatus(error))
        }
    }

    /// Makes `target` active (nobody: signs the session out), and says so.
    private func make(_ target: Account?, active context: CommandContext, io: CommandIO) throws {
        let session = try context.sessionKey(writes: true)
        let database = try context.openDatabase()
        let change = if let target {
            try database.switchAccount(to: target.id, session: session, pin: try pin.proof(for: target, in: database, io: io))
        } else {
            try database.signOut(session: session)
        }
        options.json
            ? io.printJSON(StatusJSON(session: session, active: change.current))
            : io.print("Switched to \(describe(change.current, in: session))")
        RevokedWarning.warn(change.current, session: session, sessionNamed: options.session != nil, io: io)
        if let git = try? context.configuration().git { ShellStaleness.warn(after: change.current.account, git: git, io: io) }
    }

    /// `switch` with no account, not on a terminal: the accounts, as `accounts` lists them.
    private func listAccounts(_ context: CommandContext, session: SessionKey) throws {
        let database = try context.openDatabase(.readOnlyIfUnwritable)
        let active = try database.active(in: session).id
        var output = AccountsOutput(to: context.io.stdout, json: options.json)
        let protected = try database.protectedAccounts()
        try database.forEachAccount { output.add($0, active: $0.id == active, protected: protected.contains($0.id)) }
        output.finish()
    }
}

struct SignOutCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "sign-out", abstract: "Act as nobody in this session; identities stay available.")

    @OptionGroup var options: CommonOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey(writes: true)
        try io.reportingErrors { () throws(StoreError) in
            let change = try context.openDatabase().signOut(session: session)
            if options.json { return io.printJSON(StatusJSON(session: session, active: change.current)) }
            switch change.previous {
            case .anonymous: io.print("Already anonymous in session \(session).")
            case .account(let account): io.print("Signed \(account.name.displaySafe) out of session \(session).")
            }
        }
    }
}

struct DisconnectCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "Forget an identity and the data fetched with it; an account left with none is deleted.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "The identity as provider:subject, or a provider the active account has one identity at.")
    var identity: String

    @OptionGroup var pin: PINProofOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey()
        let providers = ProviderDirectory(configuration: try context.configuration().providers, transport: URLSessionTransport())
        let result: DisconnectResult, revocation: Revocation
        do {
            let database = try context.openDatabase()
            let target = try resolveIdentity(in: database, session: session)
            let owner = try database.account(owning: target)
            let proof = try owner.flatMap { try pin.proof(for: $0, in: database, io: io) }
            (result, revocation) = try await Disconnect(database: database, providers: providers, bus: nil).run(
                target, session: session, pin: proof)
        } catch let error as StoreError {
            throw io.fail(error.description, ExitStatus(error))
        } catch let error as Ambiguity {
            throw io.fail(error.message, .ambiguous)
        }
        let target = result.identity
        if options.json {
            return io.printJSON(DisconnectJSON(
                disconnected: target.description, accountRemoved: result.accountRemoved, revocation: RevocationJSON(revocation),
                status: StatusJSON(session: session, active: result.change.current)))
        }
        io.print("Disconnected \(target.description.displaySafe)"
              + (result.accountRemoved ? "; it was its account's last identity, so the account was deleted." : "."))
        if let sentence = revocation.sentence(provider: target.provider) { io.print(sentence) }
    }

    /// `provider:subject` as given; else a provider or `provider:login` of
    /// the active account; two identities at the provider are named, to
    /// choose from.
    private func resolveIdentity(in database: AppDatabase, session: SessionKey) throws -> Identity {
        let identities = try database.active(in: session).account?.identities ?? []
        if let parsed = Identity(parsing: identity), try database.linkedIdentity(parsed) != nil { return parsed }
        switch IdentityChoice.pick(identity, among: identities) {
        case .success(let linked): return linked.identity
        case .failure(.several(_, let names)):
            let full = identities.filter { $0.provider.rawValue == identity }.map(\.identity.description)
            throw Ambiguity(message: "the active account has \(names.count) identities at \(identity): give one of "
                + full.joined(separator: ", ") + " (or " + names.joined(separator: ", ") + ")")
        case .failure(.none): throw StoreError.identityNotFound(identity)
        }
    }
}

/// Two identities at the provider `disconnect` was given.
private struct Ambiguity: Error {
    let message: String
}

/// What revoking at the provider did: `{"result": "revoked|notOffered|nothingStored|failed", "detail", "manual"}`.
struct RevocationJSON: Encodable {
    let result: String
    @Null var detail: String?
    @Null var manual: String?

    init(_ revocation: Revocation) {
        switch revocation {
        case .revoked(let host): (result, detail, manual) = ("revoked", host, nil)
        case .notOffered(let url): (result, detail, manual) = ("notOffered", nil, url?.absoluteString)
        case .nothingStored: (result, detail, manual) = ("nothingStored", nil, nil)
        case .failed(let why, let url): (result, detail, manual) = ("failed", why, url?.absoluteString)
        }
    }
}

/// `disconnect --json`: the identity gone, and who the session acts as now.
struct DisconnectJSON: Encodable {
    let disconnected: String
    let accountRemoved: Bool
    let revocation: RevocationJSON
    let status: StatusJSON
}
