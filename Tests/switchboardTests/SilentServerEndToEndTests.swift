import Foundation
import PostgresServer
import Store
import SwitchboardCore
import TestBasics
import Testing
import TestSupport

/// A station's chooser in a terminal of its own (tmux), its PostgreSQL
/// server behind a fault proxy that stops answering while keeping the
/// connections, as a paused server does: the screen never waits for it.
@Suite("a station whose server stops answering, end to end", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct SilentServerEndToEndTests {
    /// A fresh store of the test run's server holding Ada and Grace: its URL,
    /// the same reached through a fault proxy of the test's own, and the proxy.
    static func storeBehindProxy() throws -> (direct: String, url: String, proxy: FaultProxy) {
        let direct = try TestPostgres.freshStore(suite: #fileID)
        let cluster = try TestPostgres.cluster()
        let proxy = try FaultProxy(to: cluster.port)
        _ = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: try AppDatabase(testing: .server(direct)), session: SessionKey("setup")!)
        return (direct, direct.replacingOccurrences(of: ":\(cluster.port)/", with: ":\(proxy.port)/"), proxy)
    }

    @Test("keys are answered while the server is silent; a switch past the deadline shows offline and is refused; when the server answers the station is live again with what the store holds")
    func silentServer() async throws {
        let (direct, url, proxy) = try Self.storeBehindProxy()
        defer { proxy.stop() }
        let lab = try ChooserFixture(session: "lab-1/script", store: url, station: "lab-1", storeTimeout: 1)
        defer { lab.remove() }
        let environment = lab.environment.filter { $0.key != "SWITCHBOARD_SESSION" }
        try await withTmux(builtProduct("switchboard"), environment: environment) { tmux in
            try await tmux.waitUntil("both people listed") { screen in
                ["Ada Lovelace", "Grace Hopper"].allSatisfy { name in accountsPane(screen).contains { $0.contains(name) } }
            }
            proxy.set(.hold)
            // A switch: its call goes out and meets silence. Help needs nothing of the store, and shows.
            try await selectAccount("Ada Lovelace", in: tmux)
            try await tmux.press("Enter", "?")
            // (Whether the station already says offline depends on its change watch: a quiet server is asked every second.)
            _ = try await tmux.waitFor(text: "Keys")
            try await tmux.press("Escape")
            try await tmux.waitUntil("offline shown", timeout: 20) { statusBar($0).contains("⚠ Station offline — retrying") }
            try await tmux.press("s")
            try await tmux.waitFor(text: "Station offline — retrying: nothing can be switched or signed in")

            // The server answers again: live, the list read again, and what the store holds shown.
            proxy.set(.pass)
            try await tmux.waitUntil("live again", timeout: 20) { !statusBar($0).contains("offline") }
            // The switch abandoned at its deadline may still have reached the server once it answered
            // (no client can know): whichever way, the screen comes to show what the store holds.
            try await tmux.waitUntil("the store's choice shown", timeout: 20) { screen in
                let shown = statusBar(screen)
                // The session is the terminal's, named at the end of the status bar (⌂ lab-1/pts/N).
                guard !shown.contains("waiting"), !shown.contains("offline"),
                    let session = shown.split(separator: "⌂").last.map({ $0.trimmingCharacters(in: .whitespaces) })
                else { return false }
                let active = try AppDatabase(testing: .server(direct)).active(in: SessionKey(stored: session))
                return active.account.map { shown.contains("● " + $0.name) } ?? shown.contains("○ Anonymous")
            }
        }
    }

    @Test("a station started while its server is silent opens offline, refuses to sign in, and shows its list once the server answers, with no other write")
    func bootDuringOutage() async throws {
        let (_, url, proxy) = try Self.storeBehindProxy()
        defer { proxy.stop() }
        proxy.set(.hold)
        let lab = try ChooserFixture(session: "lab-2/script", store: url, station: "lab-2", storeTimeout: 1)
        defer { lab.remove() }
        let environment = lab.environment.filter { $0.key != "SWITCHBOARD_SESSION" }
        try await withTmux(builtProduct("switchboard"), environment: environment) { tmux in
            try await tmux.waitUntil("offline at start", timeout: 20) { statusBar($0).contains("⚠ Station offline — retrying") }
            try await tmux.press("a")
            try await tmux.waitFor(text: "Station offline — retrying: nothing can be switched or signed in")
            proxy.set(.pass)
            try await tmux.waitUntil("the list, once the server answers", timeout: 20) { screen in
                !statusBar(screen).contains("offline") && ["Ada Lovelace", "Grace Hopper"].allSatisfy { name in accountsPane(screen).contains { $0.contains(name) } }
            }
        }
    }
}
