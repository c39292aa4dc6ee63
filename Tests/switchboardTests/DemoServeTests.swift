import DemoProvider
import Foundation
import Testing
import TestBasics
import TestSupport

@Suite("switchboard demo serve: its options")
struct DemoServeTests {
    @Test("--expires-in under 10 seconds is refused with the reason (exit 64)", arguments: ["0", "9", "-5"])
    func shortExpiry(value: String) async throws {
        let result = try await runProcess(builtProduct("switchboard"), ["demo", "serve", "--port", "0", "--expires-in=\(value)"], timeout: 20)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--expires-in must be at least 10 seconds"))
        #expect(!result.stdout.contains("Demo provider at"))
    }

    @Test("a port it may not use is reported with the system's reason, not as taken")
    func privilegedPort() async throws {
        // Root may listen on port 80: the command then runs as nobody.
        let switchboard = builtProduct("switchboard")
        let arguments = ["demo", "serve", "--port", "80"]
        let result = geteuid() == 0
            ? try await runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", switchboard] + arguments, timeout: 20)
            : try await runProcess(switchboard, arguments, timeout: 20)
        #expect(result.status == 14, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:80"))
        #expect(result.stderr.contains(String(cString: strerror(EACCES))), "\(result.stderr)")
        #expect(!result.stdout.contains("taken"))
    }
}

@Suite("switchboard demo serve for a room: --listen and --public-url")
struct DemoServeRoomTests {
    @Test("--listen on a namespace's address: a phone in another namespace opens the page the QR code shows and approves the code")
    func phoneInAnotherNamespace() async throws {
        let net = try await NetworkNamespaces.make()
        let cli = CLI()
        var processes: [LiveProcess] = []
        do {
            let switchboard = builtProduct("switchboard")
            let server = try LiveProcess(net.ip, net.inside(net.host, [switchboard, "demo", "serve", "--port", "0", "--interval", "1", "--listen", net.hostAddress]))
            processes.append(server)
            let banner = try #require(await server.line(containing: "Demo provider at"), "\(server.stderr)")
            let issuer = String(banner.split(separator: " ").last!)
            let port = try #require(URL(string: issuer)?.port)
            let pages = "http://\(net.hostAddress):\(port)"
            #expect(issuer == "http://127.0.0.1:\(port)")
            #expect(await server.line(containing: "approval page  \(pages)/device") != nil)
            try await waitUntil("the warning about who can approve", within: 20) {
                server.stderr.contains("anyone who can reach \(net.hostAddress):\(port) can approve codes")
            }

            try "[providers.demo]\nissuer = \"\(issuer)\"\n".write(toFile: cli.folder.file("config.toml"), atomically: true, encoding: .utf8)
            let signIn = try LiveProcess(net.ip, net.inside(net.host, [switchboard, "sign-in", "demo"]), environment: [
                "SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "room", "SWITCHBOARD_CONFIG": cli.folder.file("config.toml"),
            ])
            processes.append(signIn)
            let scan = try #require(await signIn.line(containing: "Scan the code: it opens"), "\(signIn.stderr)")
            let complete = String(scan.split(separator: " ").last!)
            let code = String(try #require(complete.split(separator: "=").last))
            #expect(complete == "\(pages)/device?user_code=\(code)")
            #expect(await signIn.line(containing: "Open  \(pages)/device") != nil)

            // The phone: curl in the other namespace, which reaches the machine only by its address.
            let curl = ["curl", "--silent", "--show-error", "--max-time", "20"]
            let page = try await runProcess(net.ip, net.inside(net.phone, curl + [complete]), timeout: 60)
            #expect(page.status == 0 && page.stdout.contains("value=\"\(code)\""), "\(page.stderr)")
            let loopbackFromPhone = try await runProcess(net.ip, net.inside(net.phone, curl + ["http://127.0.0.1:\(port)/device"]), timeout: 60)
            #expect(loopbackFromPhone.status != 0, "the phone's own loopback has no demo provider")
            let api = try await runProcess(net.ip, net.inside(net.phone, curl + [
                "--write-out", "%{http_code}", "--output", "/dev/null", "-H", "Content-Type: application/json",
                "--data", "{\"user_code\":\"\(code)\",\"person\":\"zoe\"}", "\(pages)/api/approve",
            ]), timeout: 60)
            #expect(api.stdout == "403", "the API stays on loopback: \(api.stdout) \(api.stderr)")
            let approval = try await runProcess(net.ip, net.inside(net.phone, curl + [
                "-H", "Origin: \(pages)", "--data-urlencode", "user_code=\(code)", "--data", "person=grace", "--data", "action=approve",
                "\(pages)/device",
            ]), timeout: 60)
            #expect(approval.stdout.contains("signed in as Grace Hopper"), "\(approval.stdout) \(approval.stderr)")

            #expect(await signIn.line(containing: "Welcome, Grace Hopper!") != nil, "\(signIn.lines) \(signIn.stderr)")
            #expect(await signIn.exitStatus() == 0)
            server.interrupt()
            #expect(await server.exitStatus(within: 10) == 0)
        } catch {
            processes.forEach { $0.terminate() }
            await net.remove()
            throw error
        }
        processes.forEach { $0.terminate() }
        await net.remove()
    }

    @Test("--public-url and --listen are refused for a provider that is not a demo one, naming it")
    func otherProvidersRefused() async throws {
        let cli = CLI()
        let config = cli.folder.file("config.toml")
        try """
            [providers.work]
            kind = "oidc"
            issuer = "https://login.example.com"
            client_id = "switchboard"

            [providers.lab]
            kind = "demo"
            issuer = "https://demo.example.com"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let refused = await cli.run("demo", "serve", "--provider", "work", "--public-url", "http://192.0.2.7:8628", "--config", config)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--public-url: work is a provider of kind oidc, not demo"), "\(refused.stderr)")
        #expect(refused.stderr.contains("approval page is its own"))
        #expect(!refused.stdout.contains("Demo provider at"))
        let listen = await cli.run("demo", "serve", "--provider", "work", "--listen", "192.0.2.7", "--config", config)
        #expect(listen.status == 64 && listen.stderr.contains("--listen: work is"), "\(listen.stderr)")
        let unknown = await cli.run("demo", "serve", "--provider", "nope", "--public-url", "http://192.0.2.7:8628", "--config", config)
        #expect(unknown.status == 6 && unknown.stderr.contains("no such provider"), "\(unknown.stderr)")
        let remote = await cli.run("demo", "serve", "--provider", "lab", "--config", config)
        #expect(remote.status == 6 && remote.stderr.contains("not on http://127.0.0.1"), "\(remote.stderr)")
        let everywhere = await cli.run("demo", "serve", "--listen", "0.0.0.0")
        #expect(everywhere.status == 64 && everywhere.stderr.contains("would listen on every address"), "\(everywhere.stderr)")
    }

    @Test("sign-in prints the public page and a QR code of it, and tells to approve on loopback")
    func signInPrintsPublicPage() async throws {
        let demo = try await LocalDemo(DemoSettings(interval: 1), publicAccess: try PublicAccess(listen: nil, url: "https://demo.example.org"))
        let signIn = demo.cli.start("sign-in", "demo", environment: demo.environment)
        let scan = try #require(await signIn.line(containing: "Scan the code: it opens"), "\(signIn.stderr)")
        let complete = String(scan.split(separator: " ").last!)
        #expect(complete.hasPrefix("https://demo.example.org/device?user_code="))
        let code = String(complete.split(separator: "=").last!)
        #expect(await signIn.line(containing: "  Open  https://demo.example.org/device") != nil)
        #expect(await signIn.line(containing: "switchboard demo approve \(code) --server \(demo.url)") != nil)
        #expect(signIn.lines.contains { $0.contains("▀") || $0.contains("▄") || $0.contains("█") }, "a QR code")
        #expect(await demo.approve(code, ["--as", "ada"]).status == 0)
        #expect(await signIn.exitStatus() == 0)
        #expect(signIn.lines.contains { $0.contains("Welcome, Ada Lovelace!") })
        await demo.stop()
    }
}
