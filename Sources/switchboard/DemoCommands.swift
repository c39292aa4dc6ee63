import ArgumentParser
import Configuration
import DemoProvider
import DeviceFlow
import Foundation
import Services
import SwitchboardCore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Run the built-in demo provider, and approve its codes from a terminal.",
        subcommands: [DemoServe.self, DemoApprove.self, DemoTour.self])
}

struct DemoServe: IOCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo RFC 8628 + OpenID Connect provider on 127.0.0.1 until Ctrl-C.",
        discussion: """
            With --listen, the provider also listens on another address of this machine (its Wi-Fi address) \
            so phones in the room can open the approval page, and the codes' verification_uri and QR code \
            point there (or at --public-url). Switchboard itself keeps talking to it on 127.0.0.1.
            """)

    @Option(name: .long, help: "The port (a free one is used when it is taken; default: the issuer's port with --provider, else 8628).")
    var port: UInt16?

    @Option(name: .customLong("expires-in"), help: "Seconds a code lives (at least 10).")
    var expiresIn = 600

    @Option(name: .long, help: "Seconds between polls to ask of clients.")
    var interval = 5

    @Option(name: .customLong("slow-down"), help: "Answer slow_down to the first N polls of each code.")
    var slowDown = 0

    @Flag(name: .customLong("deny-all"), help: "Turn every approval into a denial.")
    var denyAll = false

    @Option(name: .customLong("access-token-lifetime"), help: "Seconds an access token lives.")
    var accessTokenLifetime = 3600

    @Flag(name: .customLong("rotate-refresh-tokens"), help: "Answer each refresh with a new refresh token; the old one stops working.")
    var rotateRefreshTokens = false

    @Option(name: .long, help: "Also listen on this address of the machine (such as its Wi-Fi address), for phones in the room.")
    var listen: String?

    @Option(name: .customLong("public-url"), help: "The address phones open, put in verification_uri and the QR code (default: http://LISTEN:PORT).")
    var publicURL: String?

    @Option(name: .long, help: "Serve as this configured provider, which must be a demo provider (default: demo, at 127.0.0.1:8628).")
    var provider: String?

    @Option(name: .long, help: "The configuration file, for --provider (default: $SWITCHBOARD_CONFIG, else $XDG_CONFIG_HOME/switchboard/config.toml).")
    var config: String?

    func validate() throws {
        guard expiresIn >= 10 else {
            throw ValidationError("--expires-in must be at least 10 seconds (got \(expiresIn)): a shorter code expires before anyone can type it")
        }
        guard interval >= 0 else { throw ValidationError("--interval must be 0 or more seconds (got \(interval))") }
        guard slowDown >= 0 else { throw ValidationError("--slow-down must be 0 or more (got \(slowDown))") }
    }

    func run(io: CommandIO) async throws {
        let settings = DemoSettings(
            expiresIn: expiresIn, interval: interval, slowDownPolls: slowDown, denyAll: denyAll,
            accessTokenLifetime: accessTokenLifetime, rotateRefreshTokens: rotateRefreshTokens)
        if let problem = settings.problem { throw io.fail("demo serve: \(problem)", .usage) }
        let served = try servedProvider(io)
        var access: PublicAccess?
        if listen != nil || publicURL != nil {
            do { access = try PublicAccess(listen: listen, url: publicURL) } catch { throw io.fail(error.description, .usage) }
        }
        let port = port ?? UInt16(served.issuer?.port ?? 8628)
        let server = DemoServer(settings: settings)
        let url: URL
        do { url = try await server.start(port: port, publicAccess: access) } catch {
            throw io.fail("cannot start the demo provider: \(error)", .offline)
        }
        let pages = await server.publicURL ?? url
        if port != 0, url.port != Int(port) { io.print("Port \(port) is taken; using \(url.port ?? 0).") }
        let configured = (served.issuer ?? ProviderSettings.demo().issuer)?.absoluteString == url.absoluteString
        io.print("""
            Demo provider at \(url.absoluteString)
              approval page  \(pages.absoluteString)/device
              people         \(DemoServer.people.map { "\($0.id) (\($0.name))" }.joined(separator: ", "))
            Sign in from another terminal: switchboard sign-in \(served.id.rawValue)\(configured ? "" : "  (with [providers.\(served.id.rawValue)] issuer = \"\(url.absoluteString)\" in config.toml)")
            Ctrl-C stops it.
            """)
        if access != nil {
            let reach = access?.listen.map { "\($0):\(url.port ?? 0)" } ?? pages.absoluteString
            io.stderr.write("""
                switchboard: warning: anyone who can reach \(reach) can approve codes there as the demo people \
                (\(DemoServer.people.map(\.id).joined(separator: ", "))). Serve it only on a network you trust, for the length of the demo. \
                Approving by API and the server's switches stay on 127.0.0.1.

                """)
        }
        await waitUntilStopped(io)
        await server.stop()
        io.print("Stopped.")
    }

    /// The demo provider this serves: `--provider`'s settings from the
    /// configuration, which must be a demo provider's, else the built-in Demo.
    private func servedProvider(_ io: CommandIO) throws -> ProviderSettings {
        guard let provider else { return .demo() }
        let path = SwitchboardConfiguration.path(explicit: config, environment: io.environment).path
        let configuration: SwitchboardConfiguration
        do { configuration = try SwitchboardConfiguration.load(path: path) } catch { throw io.fail(error.description, .configuration) }
        guard let settings = configuration.providers.provider(ProviderID(provider)) else {
            let names = configuration.providers.providers.map(\.id.rawValue).joined(separator: ", ")
            throw io.fail("--provider \(provider.displaySafe): no such provider; configured: \(names)", .configuration)
        }
        guard settings.kind == .demo else {
            let options = [listen.map { _ in "--listen" }, publicURL.map { _ in "--public-url" }].compactMap { $0 }
            let what = options.isEmpty ? "demo serve" : options.joined(separator: " and ")
            throw io.fail("\(what): \(settings.id.rawValue.displaySafe) is a provider of kind \(settings.kind.rawValue), not demo; "
                + "only the demo provider is served here, and every other provider's approval page is its own", .usage)
        }
        if let issuer = settings.issuer, let problem = Self.loopbackProblem(issuer) {
            throw io.fail("--provider \(settings.id.rawValue.displaySafe): \(problem)", .configuration)
        }
        return settings
    }

    /// Why a demo provider's issuer cannot be served here: it must be
    /// plain http on 127.0.0.1, where the server listens.
    private static func loopbackProblem(_ issuer: URL) -> String? {
        issuer.scheme == "http" && (issuer.host == "127.0.0.1" || issuer.host == "localhost") ? nil
            : "its issuer \(issuer.absoluteString.displaySafe) is not on http://127.0.0.1, where the demo provider listens"
    }

    /// Until Ctrl-C for the process's own; until the task is cancelled in a test's.
    private func waitUntilStopped(_ io: CommandIO) async {
        let stopped = AsyncStream<Void> { continuation in
            let interrupt = io.takesSignals ? Interrupt { continuation.yield() } : nil
            continuation.onTermination = { _ in interrupt?.stop() }
        }
        for await _ in stopped { break }
    }
}

struct DemoApprove: IOCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve", abstract: "Approve (or deny) a demo sign-in code, as a demo person.")

    @Argument(help: "The code shown by `switchboard sign-in demo`, with or without the dash.")
    var code: String

    @Option(name: .customLong("as"), help: "Who approves: ada, grace, zoe or alan.")
    var person = "ada"

    @Flag(name: .long, help: "Deny instead of approving.")
    var deny = false

    @Option(name: .long, help: "The demo provider's address.")
    var server = "http://127.0.0.1:8628"

    func run(io: CommandIO) async throws {
        guard let base = URL(string: server), URL(string: base.absoluteString + "/api/approve") != nil else {
            throw io.fail("--server \(server.displaySafe) is not a URL", .usage)
        }
        if let problem = EndpointPolicy.problem(with: base, as: "--server") { throw io.fail(problem, .usage) }
        let answer: DemoAPI.Answer
        do {
            answer = try await DemoAPI(server: base, transport: URLSessionTransport(timeout: 10)).decide(userCode: code, person: person, deny: deny)
        } catch {
            throw io.fail("\(error); is `switchboard demo serve` running at \(server)?", .offline)
        }
        switch answer {
        case .approved, .denied: io.print(deny ? "Denied \(code)." : "Approved \(code) as \(person).")
        case .unknownCode: throw io.fail("no pending code \(code) at \(server)", .notFound)
        case .unknownPerson: throw io.fail("no demo person \(person); choose ada, grace, zoe or alan", .usage)
        case .expired: throw io.fail("code \(code) has expired", .expired)
        case .alreadyUsed: throw io.fail("code \(code) was already used", .conflict)
        case .tooManyAttempts, .failed: throw io.fail(answer.problem ?? "", .providerError)
        }
    }
}
