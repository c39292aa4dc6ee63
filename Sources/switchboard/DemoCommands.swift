import ArgumentParser
import DemoProvider
import DeviceFlow
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Run the built-in demo provider, and approve its codes from a terminal.",
        subcommands: [DemoServe.self, DemoApprove.self])
}

struct DemoServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo RFC 8628 + OpenID Connect provider on 127.0.0.1 until Ctrl-C.")

    @Option(name: .long, help: "The port (a free one is used when it is taken).")
    var port: UInt16 = 8628

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

    func validate() throws {
        guard expiresIn >= 10 else {
            throw ValidationError("--expires-in must be at least 10 seconds (got \(expiresIn)): a shorter code expires before anyone can type it")
        }
        guard interval >= 0 else { throw ValidationError("--interval must be 0 or more seconds (got \(interval))") }
        guard slowDown >= 0 else { throw ValidationError("--slow-down must be 0 or more (got \(slowDown))") }
    }

    func run() async throws {
        let settings = DemoSettings(
            expiresIn: expiresIn, interval: interval, slowDownPolls: slowDown, denyAll: denyAll,
            accessTokenLifetime: accessTokenLifetime, rotateRefreshTokens: rotateRefreshTokens)
        let io = CommandIO.process()
        if let problem = settings.problem { throw io.fail("demo serve: \(problem)", .usage) }
        let server = DemoServer(settings: settings)
        let url: URL
        do { url = try await server.start(port: port) } catch { throw io.fail("cannot start the demo provider: \(error)", .offline) }
        if url.port != Int(port) { print("Port \(port) is taken; using \(url.port ?? 0).") }
        print("""
            Demo provider at \(url.absoluteString)
              approval page  \(url.absoluteString)/device
              people         \(DemoServer.people.map { "\($0.id) (\($0.name))" }.joined(separator: ", "))
            Sign in from another terminal: switchboard sign-in demo\(url.port == 8628 ? "" : "  (with [providers.demo] issuer = \"\(url.absoluteString)\" in config.toml)")
            Ctrl-C stops it.
            """)
        fflush(nil)
        // Wait for Ctrl-C, then stop cleanly.
        let stopped = AsyncStream<Void> { continuation in
            let interrupt = Interrupt { continuation.yield() }
            continuation.onTermination = { _ in interrupt.stop() }
        }
        for await _ in stopped { break }
        await server.stop()
        print("Stopped.")
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
        guard let base = URL(string: server), let url = URL(string: base.absoluteString + "/api/approve") else {
            throw io.fail("--server \(server.displaySafe) is not a URL", .usage)
        }
        if let problem = EndpointPolicy.problem(with: base, as: "--server") { throw io.fail(problem, .usage) }
        let body = try JSONSerialization.data(withJSONObject: ["user_code": code, "person": person, "deny": deny])
        let response: HTTPResponse
        do {
            response = try await URLSessionTransport(timeout: 10).send(HTTPRequest(
                method: "POST", url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"], body: body))
        } catch {
            throw io.fail("\(error); is `switchboard demo serve` running at \(server)?", .offline)
        }
        let answer = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        switch (response.status, answer?["error"] as? String) {
        case (200, _): io.print(deny ? "Denied \(code)." : "Approved \(code) as \(person).")
        case (_, "unknown_code"?): throw io.fail("no pending code \(code) at \(server)", .notFound)
        case (_, "unknown_person"?): throw io.fail("no demo person \(person); choose ada, grace, zoe or alan", .usage)
        case (_, "expired_token"?): throw io.fail("code \(code) has expired", .expired)
        case (_, "code_already_used"?): throw io.fail("code \(code) was already used", .conflict)
        case (429, _): throw io.fail("too many wrong codes; wait a minute", .providerError)
        case (let status, let error): throw io.fail("the demo provider answered HTTP \(status)\(error.map { " (\($0))" } ?? "")", .providerError)
        }
    }
}
