import ArgumentParser
import Foundation
import SwitchboardCore

extension TokenContext {
    /// A fresh access token of each of the account's identities, or of
    /// those at `only` when given (each of which it must have).
    func accessTokens(of account: Account, only: [String], minValid: Double) async throws -> [(provider: ProviderID, token: String)] {
        var identities = account.identities.map(\.identity)
        if !only.isEmpty { identities = try Set(only).sorted().map { try identity(of: account, at: $0) } }
        defer { sayUnsaved() }
        do { return try await tokens.accessTokens(of: identities, minValid: minValid) } catch { throw reported(error) }
    }
}

struct EnvCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "env",
        abstract: "Print shell assignments for the active account: eval \"$(switchboard env)\".",
        discussion: """
            Sets SWITCHBOARD_ACCOUNT (the id), SWITCHBOARD_ACCOUNT_NAME and SWITCHBOARD_SESSION; with no active \
            account it unsets the first two. GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and \
            GIT_COMMITTER_EMAIL carry the account's name and verified email (unset without one; left alone with \
            [git] set_identity = false). --tokens adds each identity's access token (refreshed first) in the \
            variable its tools read: GH_TOKEN (GitHub), GITLAB_TOKEN (GitLab), GOOGLE_OAUTH_ACCESS_TOKEN (Google), \
            SWITCHBOARD_DEMO_TOKEN (Demo), SWITCHBOARD_TOKEN_<PROVIDER> (others), and unsets the rest. \
            --json prints the variables as one object, null for unset.
            """)

    @OptionGroup var options: CommonOptions
    @OptionGroup var tokenOptions: TokenOptions

    @Option(name: .long, help: "The shell to write for: bash, zsh, sh or fish (default: from $SHELL).")
    var shell: ShellSyntax?

    @Flag(name: .long, help: "Also set each identity's access token, refreshed first.")
    var tokens = false

    @Option(name: .long, help: "With --tokens, only this provider's token (repeatable).")
    var provider: [String] = []

    func validate() throws {
        if !provider.isEmpty && !tokens { throw ValidationError("--provider chooses tokens: give it with --tokens") }
    }

    func run(io: CommandIO) async throws {
        let context = try TokenContext(CommandContext(options, io: io))
        let account = tokens ? try context.tokenAccount(tokenOptions) : try context.account(tokenOptions.account)
        var environment = AccountEnvironment(account: account, session: context.session)
        environment.addCommitIdentity(of: account, settings: context.git)
        if tokens {
            let fresh = if let account {
                try await context.accessTokens(of: account, only: provider, minValid: tokenOptions.minValid)
            } else { [(provider: ProviderID, token: String)]() }
            environment.addTokens(fresh, configuration: context.configuration)
        }
        if options.json { return io.printJSON(environment.dictionary) }
        io.print(environment.script(for: shell ?? .fromEnvironment(io.environment)), terminator: "")
    }
}

extension ShellSyntax: ExpressibleByArgument {}

struct ExecCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command with the active account's variables and access tokens in its environment.",
        discussion: """
            switchboard exec [--provider P]... -- COMMAND [ARGS...]. The command gets the variables `switchboard env \
            --tokens` prints (tokens refreshed first; --provider limits which), in its environment only, never in \
            its arguments; standard input, output and error are this terminal's (no other descriptor is passed on). \
            exec exits with the command's status, or 128+N when a signal N ended it; 127 when COMMAND is not \
            found, 126 when it cannot be run. SIGTERM and SIGHUP are passed on to it.
            """)

    @OptionGroup var options: CommonOptions
    @OptionGroup var tokenOptions: TokenOptions

    @Option(name: .long, help: "Only this provider's token (repeatable).")
    var provider: [String] = []

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("name a command to run, after --") }
    }

    func run(io: CommandIO) async throws {
        let context = try TokenContext(CommandContext(options, io: io))
        let account = try context.requireTokenAccount(tokenOptions)
        let environment = AccountEnvironment.forCommand(
            account: account, session: context.session, configuration: context.configuration, git: context.git,
            tokens: try await context.accessTokens(of: account, only: provider, minValid: tokenOptions.minValid), base: io.environment)
        let status = runChild(command, environment: environment, io: io)
        throw ExitCode(status)
    }
}
