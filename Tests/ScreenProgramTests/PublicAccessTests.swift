import DemoProvider
import DeviceFlow
import Foundation
import Testing
import TestSupport
import Store
@testable import Services
@testable import ChooserApp
import ChooserUI
import SwitchboardCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A demo provider that people in a room reach on another address: the code's
/// pages (and so the QR code) carry that address, while every request of the
/// sign-in itself goes to loopback.
@Suite("A demo provider served on a public address")
struct PublicAccessTests {
    @Test("the code and its QR code carry the public address; every client request goes to 127.0.0.1; a phone approves on the public page")
    func publicPagesLoopbackClient() async throws {
        let server = DemoServer(settings: DemoSettings(interval: 1))
        // 127.0.0.2 stands for the machine's Wi-Fi address: another address than the issuer's, still on this machine.
        let base = try await server.start(port: 0, publicAccess: try PublicAccess(listen: "127.0.0.2", url: nil))
        try await stopping(server) {
            let port = try #require(base.port)
            let pages = "http://127.0.0.2:\(port)"
            #expect(await server.publicURL?.absoluteString == pages)

            let folder = TemporaryFolder()
            defer { folder.remove() }
            let database = try AppDatabase(testing: folder.file("switchboard.sqlite"))
            let recording = RecordingTransport(URLSessionTransport(timeout: 10), clock: SystemFlowClock())
            let directory = ProviderDirectory(configuration: ProviderConfiguration(providers: [.demo(issuer: base)]), transport: recording)
            let (provider, started) = try await directory.resolveForSignIn("demo")
            #expect(started == nil)
            let run = SignInRun(provider: provider, mode: .signIn, session: SessionKey("pts/7")!, database: database, bus: nil, transport: recording)
            let code = try await run.requestCode()
            #expect(code.verificationURI.absoluteString == "\(pages)/device")
            let complete = "\(pages)/device?user_code=\(code.userCode)"
            #expect(code.verificationURIComplete?.absoluteString == complete)
            // The chooser's QR code is the complete URI's, with the public address in it.
            let waiting = WaitingCode.of(code, demoServer: base.absoluteString)
            #expect(!waiting.qrRows.isEmpty && waiting.qrRows == WaitingCode.qrRows(complete))
            #expect(waiting.verificationURI == "\(pages)/device")

            // A phone opens the QR code's page on the public address and approves there.
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let (page, _) = try await session.data(from: URL(string: complete)!)
            #expect(String(decoding: page, as: UTF8.self).contains("value=\"\(code.userCode)\""))
            var approval = URLRequest(url: URL(string: "\(pages)/device")!)
            approval.httpMethod = "POST"
            approval.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            approval.setValue(pages, forHTTPHeaderField: "Origin")
            approval.httpBody = Data("user_code=\(code.userCode)&person=grace&action=approve".utf8)
            let (answer, response) = try await session.data(for: approval)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: answer, as: UTF8.self).contains("signed in as Grace Hopper"))

            let report = try await run.finish()
            #expect(report.account?.name == "Grace Hopper")
            let hosts = Set(recording.urls.map { $0.host ?? "" })
            let paths = Set(recording.urls.map(\.path))
            #expect(paths.isSuperset(of: ["/.well-known/openid-configuration", "/device_authorization", "/token", "/jwks"]), "\(recording.urls)")
            #expect(hosts == ["127.0.0.1"], "every request of the client goes to loopback: \(recording.urls)")
            #expect(recording.urls.allSatisfy { $0.scheme == "http" && $0.port == port })
        }
    }

    @Test("on the public address the API is refused and pages answer only to its own name")
    func publicListenerLimits() async throws {
        let server = DemoServer()
        let base = try await server.start(port: 0, publicAccess: try PublicAccess(listen: "127.0.0.2", url: "https://demo.example.org"))
        try await stopping(server) {
            let port = try #require(base.port)
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            func send(_ url: String, host: String? = nil, form: String? = nil) async throws -> (Int, String) {
                try await request(url, host: host, post: form.map { ("application/x-www-form-urlencoded", $0) }, over: session)
            }
            // The code's pages are announced at the public URL.
            let (status, code) = try await send("\(base.absoluteString)/device_authorization", form: "client_id=switchboard-demo")
            #expect(status == 200 && code.contains(#""verification_uri":"https://demo.example.org/device""#), "\(code)")
            // The API: refused on the public address, answered on loopback.
            let (publicStatus, publicBody) = try await send("http://127.0.0.2:\(port)/api/settings")
            #expect(publicStatus == 403 && publicBody.contains("loopback"), "\(publicBody)")
            let (loopbackStatus, _) = try await send("\(base.absoluteString)/api/settings")
            #expect(loopbackStatus == 200)
            // The approval page answers to the listening address and to the public URL's name (a proxy in front)…
            #expect(try await send("http://127.0.0.2:\(port)/device").0 == 200)
            #expect(try await send("http://127.0.0.2:\(port)/device", host: "demo.example.org").0 == 200)
            // …and to no other name.
            #expect(try await send("http://127.0.0.2:\(port)/device", host: "evil.example:\(port)").0 == 421)
        }
    }

    @Test("behind a tunnel to loopback (--public-url without --listen) the API answers only to loopback's own names, not the public one")
    func tunnelledAPI() async throws {
        let server = DemoServer()
        let base = try await server.start(port: 0, publicAccess: try PublicAccess(listen: nil, url: "https://demo.example.org"))
        try await stopping(server) {
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            func send(_ path: String, host: String?, json: String? = nil) async throws -> (Int, String) {
                try await request(base.absoluteString + path, host: host, post: json.map { ("application/json", $0) }, over: session)
            }
            // What the tunnel forwards carries the public name: pages yes, the API no.
            #expect(try await send("/device", host: "demo.example.org").0 == 200)
            let (status, body) = try await send("/api/settings", host: "demo.example.org")
            #expect(status == 403 && body.contains("loopback"), "\(body)")
            let (posted, _) = try await send("/api/settings", host: "demo.example.org", json: #"{"denyAll": true}"#)
            #expect(posted == 403)
            #expect(await server.settings.denyAll == false, "nothing changed")
            // This machine's own clients still reach it.
            #expect(try await send("/api/settings", host: nil).0 == 200)
        }
    }

    @Test("what --listen and --public-url refuse, naming the option", arguments: [
        (nil, "ftp://demo.example", "--public-url ftp://demo.example is not an http or https URL"),
        (nil, "https://demo.example/path", "give only scheme://host[:port]"),
        (nil, "https://user@demo.example", "give only scheme://host[:port]"),
        ("0.0.0.0", nil, "--listen 0.0.0.0 would listen on every address"),
        ("::", nil, "--listen :: would listen on every address"),
        ("127.0.0.1", nil, "always listens on loopback"),
        ("wifi.local", nil, "--listen wifi.local is not an IP address"),
        (nil, "https://demo.example:99999", "--public-url"),
        (nil, "https://dem%6F.example", "--public-url"),
        (nil, "https://" + String(repeating: "a.", count: 150) + "example", "longer than 253"),
        (nil, "https://-demo.example", "the host must be an IP address or a name"),
    ] as [(String?, String?, String)])
    func refusals(listen: String?, url: String?, message: String) {
        #expect(throws: DemoError.self) { try PublicAccess(listen: listen, url: url) }
        do {
            _ = try PublicAccess(listen: listen, url: url)
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }
}

/// One request to `url`, with `host` as its Host and, when given, a POST
/// body of a content type: its status and body text.
private func request(_ url: String, host: String?, post: (type: String, body: String)?, over session: URLSession) async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: url)!)
    if let host { request.setValue(host, forHTTPHeaderField: "Host") }
    if let post {
        request.httpMethod = "POST"
        request.setValue(post.type, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(post.body.utf8)
    }
    let (data, response) = try await session.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}

/// Runs `body`, then stops `server` and waits for it, however `body` ended.
private func stopping(_ server: DemoServer, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
