import FlyingFox
import FlyingSocks
import Foundation

/// Starts and stops the FlyingFox server, and knows where it listens.
actor ServerLifecycle {
    private struct Running {
        /// Loopback's first, then the public address's, if any.
        let listeners: [(server: HTTPServer, task: Task<Void, any Error>)]
        let slot: ProviderSlot
        let url: URL
        let publicURL: URL
    }

    private var running: Running?

    /// The base URL while listening.
    var baseURL: URL? { running?.url }

    /// The base URL of the pages people open while listening: the public
    /// one, else `baseURL`.
    var publicURL: URL? { running?.publicURL }

    /// Listens on `host:port` (or, when that port is in use, a free one),
    /// and with `publicAccess` on its address too, at the same port; then
    /// serves `store` with a fresh signing key. Any other failure to listen
    /// (no permission for a low port, say) is reported as it is.
    func start(host: String, port: UInt16, fallbackToFreePort: Bool, publicAccess: PublicAccess?, store: CodeStore) async throws -> URL {
        if let running { return running.url }
        let signer = await Signer.generate()
        let slot = ProviderSlot()
        var listening: (server: HTTPServer, task: Task<Void, any Error>, port: UInt16)
        do {
            listening = try await listen(host: host, port: port, router: Router(slot: slot))
        } catch let failure as ListenFailure {
            guard fallbackToFreePort, port != 0, failure.code == EADDRINUSE else { throw failure.error }
            do { listening = try await listen(host: host, port: 0, router: Router(slot: slot)) } catch let again as ListenFailure { throw again.error }
        }
        var listeners = [(listening.server, listening.task)]
        if let address = publicAccess?.listen {
            do {
                let other = try await listen(host: address, port: listening.port, router: Router(slot: slot, isPublic: true))
                listeners.append((other.server, other.task))
            } catch let failure as ListenFailure {
                for (server, task) in listeners { await Self.shutDown(server, task) }
                throw failure.error
            }
        }
        if let running {  // a concurrent start won while this one was binding
            for (server, task) in listeners { await Self.shutDown(server, task) }
            return running.url
        }
        guard let url = URL(string: "http://\(Self.urlHost(host)):\(listening.port)"),
            let publicURL = publicAccess.map({ $0.base(port: listening.port) }) ?? url
        else {
            for (server, task) in listeners { await Self.shutDown(server, task) }
            throw DemoError.cannotBind("\(host) does not form a URL")
        }
        slot.set(Provider(store: store, signer: signer, issuer: url.absoluteString, publicURL: publicURL,
                          listen: publicAccess?.listen.map { "\(Self.urlHost($0)):\(listening.port)" }))
        running = Running(listeners: listeners, slot: slot, url: url, publicURL: publicURL)
        return url
    }

    /// Stops listening and waits for the server task to end.
    func stop() async {
        guard let current = running else { return }
        running = nil
        current.slot.set(nil)
        for (server, task) in current.listeners { await Self.shutDown(server, task) }
    }

    /// Why listening failed, with the system's error number when there is one.
    private struct ListenFailure: Error {
        let error: DemoError
        var code: Int32 = 0
    }

    private func listen(host: String, port: UInt16, router: Router)
        async throws -> (server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        let configuration: HTTPServer.Configuration
        do { configuration = try Self.configuration(host: host, port: port) } catch { throw ListenFailure(error: error) }
        let server = HTTPServer(config: configuration, handler: router)
        // Generous: on a loaded machine (CI) the listener can be slow to get a thread.
        let waiter = Task { try await server.waitUntilListening(timeout: 30) }
        let task = Task {
            do { try await server.run() } catch {
                waiter.cancel()
                throw error
            }
        }
        do {
            try await waiter.value
        } catch {
            await Self.shutDown(server, task)
            var code: Int32 = 0
            var reason = "timed out"
            if case .failure(let failure) = await task.result {
                reason = Self.describe(failure)
                if case .failed(_, let number, _) = failure as? SocketError { code = number }
            }
            throw ListenFailure(error: .cannotBind("\(Self.urlHost(host)):\(port): \(reason)"), code: code)
        }
        switch await server.listeningAddress {
        case .ip4(_, let bound), .ip6(_, let bound): return (server, task, bound)
        default:
            await Self.shutDown(server, task)
            throw ListenFailure(error: .cannotBind("\(Self.urlHost(host)):\(port): no listening address"))
        }
    }

    private static func shutDown(_ server: HTTPServer, _ task: Task<Void, any Error>) async {
        await server.stop(timeout: 0.5)
        task.cancel()
        _ = await task.result
    }

    /// The FlyingFox configuration: logger off (it would print to stdout), explicit address.
    private static func configuration(host: String, port: UInt16) throws(DemoError) -> HTTPServer.Configuration {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let logger = disabledLogger()
        do {
            if bare == "localhost" {
                return .init(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), logger: logger)
            }
            if bare.contains(":") {
                return .init(address: try sockaddr_in6.inet6(ip6: bare, port: port), logger: logger)
            }
            return .init(address: try sockaddr_in.inet(ip4: bare, port: port), logger: logger)
        } catch {
            throw DemoError.cannotBind("\(host) is not an IP address")
        }
    }

    private static func disabledLogger() -> some Logging { .disabled }

    /// The host as it appears in a URL: IPv6 literals in brackets, `localhost` as 127.0.0.1.
    private static func urlHost(_ host: String) -> String {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" { return "127.0.0.1" }
        return bare.contains(":") ? "[\(bare)]" : bare
    }

    private static func describe(_ error: any Error) -> String {
        if case .failed(_, _, let message) = error as? SocketError { return message }
        return String(describing: error)
    }
}
