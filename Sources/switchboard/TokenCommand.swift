import ArgumentParser
import DeviceFlow
import Foundation
import Store
import Services
import SwitchboardCore
import ToolCredentials

/// `--account` and `--min-valid`, shared by `token`, `env` and `exec`.
struct TokenOptions: ParsableArguments {
    @Option(name: .long, help: "The account (an id, a name, a word of it or its start, an email, provider:login or provider:subject) instead of the one acting here.", completion: .custom(AccountCompletion.accounts))
    var account: String?

    @Option(name: .customLong("min-valid"), help: "Refresh a token first when it expires within this many seconds.")
    var minValid: Double = TokenOptions.defaultMinValid

    /// An account with a PIN that is not active in this session hands out its tokens only with its PIN.
    @OptionGroup var pin: PINProofOptions

    /// Seconds a token handed out must still be valid unless `--min-valid` says otherwise.
    static let defaultMinValid: Double = 60

    func validate() throws {
        guard minValid >= 0, minValid.isFinite else { throw ValidationError("--min-valid must be a number of seconds, 0 or more") }
    }
}

/// What `token`, `env` and `exec` work on: the database, the session and
/// the account whose tokens they hand out.
struct TokenContext {
    let database: AppDatabase
    let session: SessionKey
    let configuration: ProviderConfiguration
    /// `[git]`: whose name and email commits carry.
    let git: GitSettings
    let tokens: AccessTokens
    let io: CommandIO
    /// Where who acts here is decided (`choice`).
    let context: CommandContext

    init(_ context: CommandContext) throws {
        let io = context.io
        self.io = io
        self.context = context
        session = try context.sessionKey()
        let settings = try context.configuration()
        configuration = settings.providers
        git = settings.git
        // Handing out a stored token only reads; a refresh says why it cannot be kept.
        do { database = try context.openDatabase(.readOnlyIfUnwritable) } catch { throw io.fail(error.description, ExitStatus(error)) }
        tokens = AccessTokens(
            database: database, providers: ProviderDirectory(configuration: configuration, transport: URLSessionTransport()), bus: nil)
    }

    /// The account whose tokens `options` asks for (see `AccountChoice`:
    /// `--account`, `SWITCHBOARD_ACCOUNT`, a trusted directory rule, else the
    /// session's active one, else nil), once it may hand them out here: an
    /// account with a PIN that is not active in this session takes its PIN
    /// or the operator PIN, as a switch to it would.
    func tokenAccount(_ options: TokenOptions, providers: [ProviderID] = []) throws -> Account? {
        let choice = choice(options.account, providers: providers)
        guard let account = try account(choice) else { return nil }
        do {
            // A rule's account with a PIN asks once per terminal (`RuleAdmissions`), on this machine's store.
            let admissions = database.isShared ? nil : RuleAdmissions(environment: io.environment)
            let byRule = if case .rule = choice.source { true } else { false }
            let remembered = byRule && admissions?.admitted(account.id, in: session) == true
            let needed = try choice.namesSomeone && !remembered && database.active(in: session).id != account.id
            let proof = try options.pin.proof(for: account, in: database, needed: needed, io: io)
            if needed { try database.admitTokenUse(of: account.id, session: session, pin: proof) }
            if needed, byRule, proof != nil { admissions?.admit(account.id, in: session) }
        } catch let error as StoreError {
            throw io.fail(error.description, ExitStatus(error))
        }
        return account
    }

    /// As `tokenAccount(_:)`, but no account is an error.
    func requireTokenAccount(_ options: TokenOptions, providers: [ProviderID] = []) throws -> Account {
        guard let account = try tokenAccount(options, providers: providers) else { throw nobodyActive }
        return account
    }

    private var nobodyActive: any Error {
        io.fail("session \(session) acts as nobody; switch to an account (`switchboard switch`) or name one with --account", .noActiveAccount)
    }

    /// The kind of `provider`: as configured, else the kind it is named
    /// after (an identity of a provider no longer configured), else OpenID Connect.
    func kind(of provider: ProviderID) -> ProviderKind {
        configuration.provider(provider)?.kind ?? ProviderKind(rawValue: provider.rawValue) ?? .oidc
    }

    /// One line for a tool that found nobody chosen here: which terminal
    /// (or session) it is and how to choose someone there.
    func nobodyChosen(for tool: String) -> String {
        if let terminal = io.terminal(), terminal.name == session.rawValue {
            return "terminal \(session) has nobody chosen, so \(tool) gets no token; choose with `switchboard` there"
        }
        if session.isMachine {
            return "the machine default (no terminal) has nobody chosen, so \(tool) gets no token; "
                + "choose with `switchboard switch NAME --session '*'`"
        }
        return "session \(session) has nobody chosen, so \(tool) gets no token; choose with `switchboard switch NAME --session \(session)`"
    }

    /// Who acts here (`AccountChoice`), its notices said on standard error
    /// unless `quiet` (a helper git or kubectl runs, whose error reaches the
    /// person on every use).
    func choice(_ option: String?, providers: [ProviderID] = [], quiet: Bool = false) -> AccountChoice {
        let choice = context.accountChoice(option: option, providers: providers)
        if !quiet { for notice in choice.notices { io.stderr.write("switchboard: \(notice.displaySafe)\n") } }
        return choice
    }

    /// The account `choice` names, else the session's active one, else nil.
    /// A rule's account that cannot be found is said with the rule's place.
    func account(_ choice: AccountChoice) throws -> Account? {
        do {
            if let query = choice.query { return try database.findAccount(query) }
            return try database.active(in: session).account
        } catch {
            let home = HomeDirectory.path(environment: io.environment)
            if case .rule = choice.source { throw io.fail("\(choice.reason(home: home)): \(error.description)", ExitStatus(error)) }
            throw io.fail(error.description, ExitStatus(error))
        }
    }

    /// The account named by `--account` (or the rest of the precedence), else nil.
    func account(_ option: String?, providers: [ProviderID] = [], quiet: Bool = false) throws -> Account? {
        try account(choice(option, providers: providers, quiet: quiet))
    }

    /// The account's identity at `provider`; with no provider, its only one.
    func identity(of account: Account, at provider: String?) throws -> Identity {
        let providers = account.identities.map { IdentityChoice.shortName(of: $0, among: account.identities) }.joined(separator: ", ")
        guard let provider else {
            guard account.identities.count == 1 else {
                throw io.fail("\(account.name.displaySafe) has several identities (\(providers.displaySafe)); name one", .ambiguous)
            }
            return account.identities[0].identity
        }
        switch IdentityChoice.pick(provider, among: account.identities) {
        case .success(let linked): return linked.identity
        case .failure(.none):
            throw io.fail("\(account.name.displaySafe) has no identity at \(provider.displaySafe) (it has: \(providers.displaySafe))", .notFound)
        case .failure(.several(_, let names)):
            throw io.fail("\(account.name.displaySafe) has \(names.count) identities at \(provider.displaySafe): name one as "
                + names.joined(separator: " or ").displaySafe, .ambiguous)
        }
    }

    /// A token of `identity` valid for `minValid` seconds, or the failure reported and its status thrown.
    func freshToken(_ identity: Identity, minValid: Double) async throws -> FreshToken {
        defer { sayUnsaved() }
        let fresh: FreshToken
        do { fresh = try await tokens.token(for: identity, minValid: minValid) } catch { throw reported(error) }
        sayRefused(fresh)
        return fresh
    }

    /// Says on standard error that a refresh's new id_token was refused (and
    /// why), the one before it kept: the refresh itself went through.
    func sayRefused(_ fresh: FreshToken) {
        guard let refused = fresh.idTokenRefused else { return }
        io.stderr.write("switchboard: warning: \(refused.displaySafe); the id_token before it was kept\n")
    }

    /// Says on standard error why no token could be had (and which sessions
    /// a revocation signed out); returns the error that exits with its status.
    /// Tokens refreshed here that the store could not take were handed out
    /// all the same, but end with this process, and the stored refresh token
    /// is spent: said, so that a refresh refused later is understood.
    func sayUnsaved() {
        for identity in UnsavedRefreshes.shared.unsaved(in: database.path) {
            io.stderr.write("switchboard: warning: the refreshed tokens of \(identity) could not be stored (the store did not take them); "
                + "they were handed out, but the stored refresh token is spent: if its next refresh is refused, sign in again\n")
        }
    }

    func reported(_ error: TokenFailure) -> any Error {
        if case .revoked(_, let signedOut, _) = error {
            for change in signedOut { io.stderr.write("switchboard: session \(change.session) was signed out.\n") }
        }
        return io.fail(error.description.displaySafe, ExitStatus(error))
    }
}

extension ExitStatus {
    /// The status for why no token could be had.
    init(_ failure: TokenFailure) {
        switch failure {
        case .noCredentials, .expired, .revoked, .noIDToken, .knownRevoked: self = .revoked
        case .store(let error): self = ExitStatus(error)
        case .provider(_, let flow):
            switch flow {
            case .offline: self = .offline
            case .configuration: self = .configuration
            case .cancelled: self = .cancelled
            case .provider, .invalidResponse, .unverifiable: self = .providerError
            }
        }
    }
}

struct TokenCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token of the active account's identity at a provider, refreshing it first when needed.",
        discussion: """
            PROVIDER may be left out when the account has one identity. The token is refreshed first when it \
            expires within --min-valid seconds; refreshing is safe when several processes do it at once. \
            --json prints {"identity", "provider", "subject", "accessToken", "tokenType", "expiresAt", "refreshed"}.
            """)

    @OptionGroup var options: CommonOptions
    @OptionGroup var tokenOptions: TokenOptions

    @Argument(help: "The provider (e.g. github, demo, or a configured name); with two identities there, provider:login.", completion: .custom(AccountCompletion.providers))
    var provider: String?

    func run(io: CommandIO) async throws {
        let context = try TokenContext(CommandContext(options, io: io))
        let account = try context.requireTokenAccount(tokenOptions, providers: provider.map { [IdentityChoice.provider(of: $0)] } ?? [])
        let identity = try context.identity(of: account, at: provider)
        let token = try await context.freshToken(identity, minValid: tokenOptions.minValid)
        guard options.json else { return io.print(token.tokens.accessToken) }
        io.printJSON(TokenJSON(token))
    }
}

/// `token --json`. The one JSON output that holds a token.
struct TokenJSON: Encodable {
    let identity: String
    let provider: String
    let subject: String
    let accessToken: String
    let tokenType: String
    @Null var expiresAt: String?
    let refreshed: Bool

    init(_ token: FreshToken) {
        identity = token.identity.description
        provider = token.identity.provider.rawValue
        subject = token.identity.subject
        accessToken = token.tokens.accessToken
        tokenType = token.tokens.tokenType
        expiresAt = token.tokens.expiresAt.map {
            Date(timeIntervalSince1970: $0.secondsSince1970).formatted(.iso8601)
        }
        refreshed = token.refreshed
    }
}
