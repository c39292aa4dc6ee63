import ArgumentParser
import DemoProvider
import DeviceFlow
import Foundation
import Store
import Services
import SwitchboardCore

struct SignInCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in with a provider by the device flow: a code to enter on another device, a URL and a QR code.",
        discussion: """
            PROVIDER is a provider from `switchboard providers` (`demo` works without configuration). \
            Or name an OpenID Connect issuer directly with --issuer and --client-id. \
            A client secret is never taken on the command line, where other users could read it: \
            --client-secret takes -, @FILE or env:NAME.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "The provider to sign in with.", completion: .custom(AccountCompletion.providers))
    var provider: String?

    @Flag(name: .long, help: "Attach the identity to the active account instead of signing in as it.")
    var link = false

    @Option(name: .long, help: "An OpenID Connect issuer to sign in with, instead of a configured provider.")
    var issuer: String?

    @Option(name: .customLong("client-id"), help: "The client id registered at --issuer.")
    var clientID: String?

    @Option(name: .customLong("client-secret"), help: "Where to read the client secret: - (standard input), @FILE, or env:NAME.")
    var clientSecret: String?

    @Option(name: .customLong("device-endpoint"), help: "The device authorization endpoint, when discovery lacks it.")
    var deviceEndpoint: String?

    @Option(name: .long, help: "Scopes to ask for, space-separated.")
    var scope: String?

    @Option(name: .customLong("on-conflict"), help: "What to do when the identity belongs to another account: merge, switch or cancel (default: ask, or cancel without a terminal).")
    var onConflict: ConflictChoice?

    @Flag(name: .long, help: "Print each exchange with the provider to standard error as it happens: the RFC 8628 or OpenID Connect step, the HTTP status, the time since the start; secrets as their length and a short hash.")
    var trace = false

    @Option(name: .long, help: .hidden)
    var transportTimeout: Double = 15

    func validate() throws {
        if provider == nil && issuer == nil { throw ValidationError("name a provider (see `switchboard providers`) or give --issuer and --client-id") }
        if provider != nil && issuer != nil { throw ValidationError("give a provider or --issuer, not both") }
        if issuer != nil && clientID == nil { throw ValidationError("--issuer needs --client-id") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey(writes: true)
        let localDemo = issuer == nil && (try? context.configuration().providers.provider(ProviderID(provider ?? "")))??.kind == .demo
        let output = SignInOutput(json: options.json, io: io, localDemo: localDemo)
        let database: AppDatabase
        do { database = try context.openDatabase() } catch { throw io.fail(error.description, ExitStatus(error)) }
        let transport = URLSessionTransport(timeout: transportTimeout)
        let settings = try providerSettings(context)
        let directory = ProviderDirectory(configuration: ProviderConfiguration(providers: [settings]), transport: transport)
        let trace = self.trace ? FlowTrace { entries in entries.last.map(output.trace) } : nil
        let resolved: ResolvedProvider
        do {
            let found = try await directory.resolveForSignIn(settings.id, trace: trace)
            resolved = found.provider
            if let url = found.startedDemo {
                let asked = settings.issuer?.absoluteString ?? "http://127.0.0.1:8628"
                output.note("No demo provider answered at \(asked); started one at \(url.absoluteString) until this sign-in ends.")
            }
        } catch {
            if case .configuration = error { throw io.fail(error.description, .configuration) }
            output.outcome(SignInRun.ended(SignInRun.outcome(for: error)), conflict: nil, session: session)
            throw ExitCode(ExitStatus(SignInRun.outcome(for: error)).rawValue)
        }

        let run = SignInRun(provider: resolved, mode: link ? .link : .signIn, session: session, database: database, bus: nil,
                            transport: transport, trace: trace)
        let interrupt = io.takesSignals ? Interrupt { run.cancel() } : nil
        defer { interrupt?.stop() }
        let authorization: DeviceAuthorization
        do { authorization = try await run.requestCode() } catch {
            let report = SignInRun.ended(SignInRun.outcome(for: error))
            output.outcome(report, conflict: nil, session: session)
            throw ExitCode(ExitStatus(report.outcome).rawValue)
        }
        output.code(authorization, provider: resolved)
        let countdown = output.startCountdown(until: authorization.expiresAt)
        var report: SignInReport
        do { report = try await run.finish(onEvent: { output.poll($0) }) } catch {
            countdown.cancel()
            throw io.fail(error.description, ExitStatus(error))
        }
        countdown.cancel()
        output.endCountdown()
        if let refusal = report.needsPIN, let account = report.account {
            await directory.shutdown()
            throw io.fail("signed in as \(account.name.displaySafe), whose account has a PIN, so nobody was made active "
                + "(\(refusal.description)); the sign-in is kept: switch with `switchboard switch \(account.id)`", ExitStatus(refusal))
        }
        var answered: (PendingConflict, ConflictChoice)?
        if let pending = report.conflict {
            interrupt?.stop()  // Ctrl-C at the question ends the command, as anywhere else at a prompt.
            let choice = onConflict ?? output.askConflict(pending, database: database) ?? .cancel
            do {
                let change = try run.resolve(pending, choosing: choice)
                output.resolved(pending, choice: choice, change: change, session: session)
                if choice != .cancel { report = report.resolved(to: change?.current.account) }
            } catch StoreError.pinRequired, StoreError.wrongPIN, StoreError.pinLockedOut {
                let owner = pending.conflict.owner
                throw io.fail("account \(owner) has a PIN: the sign-in is kept; switch to it with `switchboard switch \(owner)`", .pinRequired)
            } catch {
                throw io.fail(error.description, ExitStatus(error))
            }
            answered = (pending, choice)
        }
        output.outcome(report, conflict: answered, session: session)
        await directory.shutdown()
        if answered?.1 == .cancel { throw ExitCode(ExitStatus.conflict.rawValue) }
        if ExitStatus(report.outcome) != .success { throw ExitCode(ExitStatus(report.outcome).rawValue) }
        if !link, !options.json, let git = try? context.configuration().git, let active = try? database.active(in: session) {
            ShellStaleness.warn(after: active.account, git: git, io: io)
        }
    }

    /// The provider's settings: ad hoc from --issuer, else from configuration.
    private func providerSettings(_ context: CommandContext) throws -> ProviderSettings {
        let io = context.io
        if let issuer {
            let url = try checkedURL(issuer, "--issuer", io)
            guard let id = ProviderID(issuer: url.absoluteString) else {
                throw io.fail("--issuer \(issuer.displaySafe): an issuer is an https URL without a user, query or fragment", .usage)
            }
            return ProviderSettings(
                id: id, kind: .oidc, clientID: clientID, clientSecret: try readSecret(io),
                issuer: url, scopes: scope.map { $0.split(separator: " ").map(String.init) },
                deviceAuthorizationEndpoint: try deviceEndpoint.map { try checkedURL($0, "--device-endpoint", io) })
        }
        let configuration = try context.configuration().providers
        guard var settings = configuration.provider(ProviderID(provider!)) else {
            throw io.fail("no provider called \(provider!.displaySafe); configured: \(configuration.providers.map(\.id.rawValue).joined(separator: ", "))", .configuration)
        }
        if let scope { settings.scopes = scope.split(separator: " ").map(String.init) }
        return settings
    }


    /// A URL from the command line that `EndpointPolicy` allows, else a usage error naming it.
    private func checkedURL(_ text: String, _ flag: String, _ io: CommandIO) throws -> URL {
        guard let url = URL(string: text) else { throw io.fail("\(flag) \(text.displaySafe) is not a URL", .usage) }
        if let problem = EndpointPolicy.problem(with: url, as: flag) { throw io.fail(problem, .usage) }
        return url
    }

    /// The client secret from standard input's next line, a file or a variable.
    private func readSecret(_ io: CommandIO) throws -> String? {
        guard let source = clientSecret else { return nil }
        var secret: String?
        if source == "-" {
            secret = io.stdin.readLine(limit: 1 << 16)
        } else if source.hasPrefix("@") {
            secret = try? String(contentsOfFile: String(source.dropFirst()), encoding: .utf8)
        } else if source.hasPrefix("env:") {
            secret = io.environment[String(source.dropFirst(4))]
        } else {
            throw io.fail("--client-secret takes -, @FILE or env:NAME, never the secret itself (other users can read command lines)", .usage)
        }
        guard let value = secret?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            throw io.fail("--client-secret \(source): nothing to read", .usage)
        }
        return value
    }
}

extension ConflictChoice: ExpressibleByArgument {}

/// Turns Ctrl-C into a call, instead of killing the process mid-write.
/// Dispatch sources are thread-safe, hence `@unchecked`.
final class Interrupt: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
