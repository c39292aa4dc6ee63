import DemoProvider
import FlyingFox
import FlyingSocks
import Foundation
import JWTKit
import ProcessKit
import Store
import Testing
import TestBasics
import TestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the git and kubectl tests share: a demo provider in this process
/// (no wait between polls, its clock settable), a database, and a
/// config.toml naming the provider, with `git_hosts` for a loopback git server.
final class ToolRig: Sendable {
    let cli = CLI()
    let clock = SettableClock()
    let server: DemoServer
    let base: URL
    let config: String

    /// `gitServer`: a loopback git server whose host the demo provider's tokens are good for.
    init(gitServer: URL? = nil) async throws {
        let clock = clock
        server = DemoServer(settings: DemoSettings(interval: 0), now: { clock.now() })
        base = try await server.start(port: 0)
        config = cli.folder.file("config.toml")
        var text = "[providers.demo]\nissuer = \"\(base.absoluteString)\"\n"
        if let gitServer { text += "git_hosts = [\"\(gitServer.absoluteString)\"]\n" }
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        // Made (and migrated) once here, before sign-ins run side by side.
        _ = try AppDatabase(testing: cli.path)
    }

    /// The environment a command gets: the database, this config, `session` (nil: none named).
    func environment(session: String?, _ more: [String: String] = [:]) -> [String: String] {
        var environment = ["SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_CONFIG": config]
        environment["SWITCHBOARD_SESSION"] = session
        return environment.merging(more) { $1 }
    }

    /// Runs `switchboard` in this process in `session`, with `input` on standard input.
    func run(_ arguments: String..., session: String, input: String? = nil, environment more: [String: String] = [:]) async -> ProcessResult {
        await TestIO(environment: environment(session: session, more), input: input).run(arguments)
    }

    /// Signs `person` in with `switchboard sign-in demo` in `session`, in this process, approved here.
    func signIn(as person: String, session: String) async throws {
        let signIn = RunningCommand(["sign-in", "demo", "--json"], environment: environment(session: session))
        let line = try #require(await signIn.line(containing: "\"event\":\"code\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        try await server.approve(userCode: try #require(object["user_code"] as? String), as: person)
        #expect(await signIn.exitStatus() == 0, "\(signIn.stderr)")
    }

    /// Signs each person in, in their session, all at once (a sign-in waits a second for its first poll).
    func signIn(_ people: [(person: String, session: String)]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (person, session) in people { group.addTask { try await self.signIn(as: person, session: session) } }
            try await group.waitForAll()
        }
    }

    /// Who the demo provider says `token` is (`preferred_username`), or nil when it does not take it.
    func person(holding token: String) async -> String? {
        await DemoCheck(base: base).person(accessToken: token)
    }

    func stop() async { await server.stop() }
}

/// Asks the demo provider who an access token is, as a resource server would.
struct DemoCheck: Sendable {
    let base: URL

    func person(accessToken token: String) async -> String? {
        var request = URLRequest(url: base.appendingPathComponent("userinfo"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        guard let (data, response) = try? await URLSession(configuration: .ephemeral).data(for: request),
            (response as? HTTPURLResponse)?.statusCode == 200,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["preferred_username"] as? String
    }
}

/// A FlyingFox server on 127.0.0.1 at a free port, answering with `handler`.
final class LoopbackServer: Sendable {
    let url: URL
    private let server: HTTPServer
    private let task: Task<Void, any Error>

    init(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) async throws {
        let server = HTTPServer(config: .init(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0), logger: .disabled))
        await server.appendRoute("*") { request in await handler(request) }
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 30)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CocoaError(.featureUnsupported) }
        self.server = server
        self.task = task
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    func stop() async {
        await server.stop(timeout: 0.5)
        task.cancel()
    }
}

/// A git server over smart HTTP: `git http-backend` as a CGI program behind
/// a loopback server, serving the bare repositories in `root`, that takes
/// only HTTP Basic credentials whose password the demo provider says is a
/// token of its own; the person it names is the CGI's `REMOTE_USER`, so
/// pushes are allowed. Every request's person (or nil) is recorded.
final class GitHTTPServer: Sendable {
    let root: String
    let http: LoopbackServer
    let people = Recorder<String?>()

    init(root: String, check: @escaping @Sendable (String) async -> String?) async throws {
        self.root = root
        let people = people
        http = try await LoopbackServer { request in
            let person = await Self.basicPassword(request).asyncMap(check) ?? nil
            people.add(person)
            guard let person else {
                return HTTPResponse(statusCode: .unauthorized, headers: HTTPHeaders([HTTPHeader("WWW-Authenticate"): #"Basic realm="switchboard-test""#]))
            }
            return await Self.cgi(request, root: root, user: person)
        }
    }

    var url: URL { http.url }

    func stop() async { await http.stop() }

    private static func basicPassword(_ request: HTTPRequest) -> String? {
        guard let value = request.headers[HTTPHeader("Authorization")], value.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(value.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return String(decoded[decoded.index(after: colon)...])
    }

    /// Runs `git http-backend` for `request` (RFC 3875's variables) and turns its output into the response.
    private static func cgi(_ request: HTTPRequest, root: String, user: String) async -> HTTPResponse {
        let body = (try? await request.bodyData) ?? Data()
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        var environment = [
            "GIT_PROJECT_ROOT": root, "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": request.method.rawValue, "PATH_INFO": request.path,
            "QUERY_STRING": query, "CONTENT_LENGTH": String(body.count), "REMOTE_USER": user, "REMOTE_ADDR": "127.0.0.1",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "GATEWAY_INTERFACE": "CGI/1.1",
        ]
        environment["CONTENT_TYPE"] = request.headers[HTTPHeader("Content-Type")]
        let cgi = environment
        let output = try? await offThePool {
            try ChildProcess.runCapturing("/usr/bin/git", ["http-backend"], environment: cgi, timeout: 60, input: Array(body))
        }
        guard let output, output.status == 0 else { return HTTPResponse(statusCode: .internalServerError) }
        // The CGI's header lines (CRLF or LF), a blank line, then the body.
        let bytes = output.stdout
        guard let (end, start) = [[0x0D, 0x0A, 0x0D, 0x0A], [0x0A, 0x0A]].compactMap({ (separator: [UInt8]) -> (Int, Int)? in
            (0...max(0, bytes.count - separator.count)).first { Array(bytes[$0..<min(bytes.count, $0 + separator.count)]) == separator }
                .map { ($0, $0 + separator.count) }
        }).min(by: { $0.0 < $1.0 })
        else { return HTTPResponse(statusCode: .internalServerError) }
        var status = HTTPStatusCode.ok
        var headers = HTTPHeaders()
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2 else { continue }
            if parts[0].lowercased() == "status", let code = Int(parts[1].prefix(3)) {
                status = HTTPStatusCode(code, phrase: String(parts[1].dropFirst(4)))
            } else {
                headers[HTTPHeader(parts[0])] = parts[1]
            }
        }
        return HTTPResponse(statusCode: status, headers: headers, body: Data(bytes[start...]))
    }
}

/// TLS in front of a loopback HTTP server, as a Kubernetes API server is
/// reached: kubectl runs an exec credential plugin only for an https
/// server. A certificate for 127.0.0.1 made by `openssl` for the test, and
/// Python's `ssl` relaying each connection to `target`.
final class TLSFront: Sendable {
    let url: URL
    private let relay: LiveChildProcess

    static let script = """
        import socket, ssl, sys, threading
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        def pipe(source, sink):
            try:
                while data := source.recv(65536):
                    sink.sendall(data)
            except OSError:
                pass
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        def serve(connection):
            try:
                secure = context.wrap_socket(connection, server_side=True)
            except (ssl.SSLError, OSError):
                connection.close()
                return
            upstream = socket.create_connection(("127.0.0.1", int(sys.argv[3])))
            threading.Thread(target=pipe, args=(secure, upstream), daemon=True).start()
            pipe(upstream, secure)
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """

    init(target: URL, folder: TemporaryFolder) async throws {
        let (key, certificate) = (folder.file("tls-key.pem"), folder.file("tls-cert.pem"))
        let made = try await runProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        relay = try LiveChildProcess("/usr/bin/python3", ["-c", Self.script, certificate, key, String(target.port!)], environment: [:])
        let port = try #require(await relay.line(within: 30) { Int($0) != nil }, "\(relay.stderr)")
        url = URL(string: "https://127.0.0.1:\(port)")!
    }

    func stop() { relay.terminate() }
}

/// A Kubernetes API server's front door on loopback: `GET /api` answers
/// only a bearer token that is an id_token the demo provider signed (its
/// JWKS), for its issuer and Switchboard's client, not expired, and says
/// whose it is (`user`, the token's email) in the answer.
final class KubeAPIServer: Sendable {
    let http: LoopbackServer

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var email: String?
        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }

    private let tls: TLSFront

    init(issuer: URL, folder: TemporaryFolder) async throws {
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: issuer.appendingPathComponent("jwks"))
        let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: data, as: UTF8.self))
        http = try await LoopbackServer { request in
            guard let value = request.headers[HTTPHeader("Authorization")], value.hasPrefix("Bearer "),
                let claims = try? await keys.verify(String(value.dropFirst(7)), as: Claims.self),
                claims.iss.value == issuer.absoluteString, claims.aud.value.contains("switchboard-demo")
            else {
                return HTTPResponse(
                    statusCode: .unauthorized, headers: HTTPHeaders([HTTPHeader("Content-Type"): "application/json"]),
                    body: Data(#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#.utf8))
            }
            let body = #"{"kind":"APIVersions","versions":["v1"],"user":"\#(claims.email ?? "?")"}"#
            return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([HTTPHeader("Content-Type"): "application/json"]), body: Data(body.utf8))
        }
        tls = try await TLSFront(target: http.url, folder: folder)
    }

    /// Where kubectl reaches it: https on loopback.
    var url: URL { tls.url }

    func stop() async {
        tls.stop()
        await http.stop()
    }
}

private extension Optional {
    func asyncMap<U>(_ transform: (Wrapped) async -> U) async -> U? {
        guard let self else { return nil }
        return await transform(self)
    }
}
