import ArgumentParser
import DeviceFlow
import Foundation
import Services
import SwitchboardCore
import ToolCredentials

/// `switchboard kube-credential [PROVIDER]`: kubectl's exec credential
/// plugin, printing an `ExecCredential` with the id_token of whoever this
/// terminal chose.
struct KubeCredentialCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "kube-credential",
        abstract: "kubectl's exec credential plugin: an ExecCredential with the id_token of whoever this terminal chose.",
        discussion: """
            Prints an ExecCredential in the apiVersion kubectl asks for in KUBERNETES_EXEC_INFO \
            (client.authentication.k8s.io/v1 or v1beta1; v1beta1 when it asks for none): status.token is the \
            active account's id_token for PROVIDER (which may be left out when the account has one identity at \
            an OpenID Connect provider), refreshed first when it expires within a minute, and \
            status.expirationTimestamp is when it expires. With nobody chosen it exits 16 and says so in one line \
            on standard error, which kubectl shows; kubectl tries again after a failure, and the line is said once \
            per kubectl run (remembered for a minute under $XDG_RUNTIME_DIR/switchboard/said, by kubectl's process).
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "The provider whose id_token the cluster takes (e.g. work, demo).", completion: .custom(AccountCompletion.providers))
    var provider: String?

    /// The least time an id_token handed to kubectl is still valid.
    static let minValid: Double = 60

    func run(io: CommandIO) async throws {
        let version: ExecCredential.Version
        switch ExecCredential.requestedVersion(info: io.environment["KUBERNETES_EXEC_INFO"]) {
        case .success(let requested): version = requested
        case .failure(let problem): throw io.fail(problem.description, .usage)
        }
        let context = try TokenContext(CommandContext(options, io: io))
        guard let account = try context.account(nil, quiet: true) else {
            // kubectl tries again after a failure and shows each try's standard error: said once per kubectl run.
            guard KubectlOnce(environment: io.environment)?.firstToSay() ?? true else { throw ExitCode(ExitStatus.noActiveAccount.rawValue) }
            throw io.fail(context.nobodyChosen(for: "kubectl"), .noActiveAccount)
        }
        let identity = try provider.map { try context.identity(of: account, at: $0) } ?? openIDIdentity(of: account, context)
        let fresh: FreshToken
        do { fresh = try await context.tokens.idToken(for: identity, minValid: Self.minValid) } catch { throw context.reported(error) }
        context.sayUnsaved()
        context.sayRefused(fresh)
        guard let token = fresh.tokens.idToken else { throw context.reported(.noIDToken(identity, refreshed: fresh.refreshed)) }
        io.print(ExecCredential.response(version, token: token, expiresAt: IDTokenExpiry.of(token)))
    }

    /// The account's one identity at a provider that issues id_tokens
    /// (every kind but GitHub).
    private func openIDIdentity(of account: Account, _ context: TokenContext) throws -> Identity {
        let candidates = account.identities.filter { context.kind(of: $0.provider) != .github }
        guard candidates.count == 1 else {
            let providers = candidates.map(\.provider.rawValue).joined(separator: ", ")
            throw candidates.isEmpty
                ? context.io.fail("\(account.name.displaySafe) has no identity at an OpenID Connect provider, whose id_token a cluster takes", .notFound)
                : context.io.fail("\(account.name.displaySafe) has identities at several OpenID Connect providers (\(providers)); name one: "
                    + "switchboard kube-credential PROVIDER", .ambiguous)
        }
        return candidates[0].identity
    }
}
