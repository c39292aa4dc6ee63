import Foundation
import Postgres
import PostgresServer
import Testing
import TestBasics
import TestSupport

/// A shared store on another machine is reached over TLS unless the URL
/// asks otherwise: a real server on an address of a network namespace the
/// test makes, the built program in another (traffic never leaves them).
@Suite("A shared store on another machine: TLS by default")
struct StoreTransportTests {
    @Test("without sslmode, a server on another address that answers without TLS is refused; a weaker mode asked for connects and warns at each start")
    func plainServerRefused() async throws {
        let net = try await NetworkNamespaces.make()
        let folder = TemporaryFolder()
        do {
            let cluster = try await offThePool {
                try ThrowawayCluster.start(in: scratchFolder, listening: .init(
                    launcher: [net.ip, "netns", "exec", net.host], address: net.hostAddress, clients: "10.203.0.0/24", tls: false))
            }
            defer { cluster.stop() }
            try cluster.createDatabase("fleet")
            let environment = [
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data"),
                "SWITCHBOARD_SESSION": "lab-3/tty1",
            ]
            let switchboard = builtProduct("switchboard")
            func accounts(_ url: String) async throws -> ProcessResult {
                try await runProcess(net.ip, net.inside(net.phone, [switchboard, "accounts", "--store", url]), environment: environment, timeout: 60)
            }
            let server = "postgresql://switchboard@\(net.hostAddress):\(cluster.port)/fleet"

            let refused = try await accounts(server)
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains("\(server): the server offers no TLS, which the connection requires"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("warning"), "\(refused.stderr)")
            // Nothing reached the server's tables: the refused start migrated nothing.
            let tables = try PGConnection.connect(cluster.ownURL(database: "fleet"))
                .query("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").text(0, 0)
            #expect(tables == "0", "tables made by a connection that should have been refused: \(tables ?? "?")")

            for mode in ["prefer", "disable"] {
                let weaker = try await accounts(server + "?sslmode=\(mode)")
                #expect(weaker.status == 0 && weaker.stdout.contains("No accounts yet"), "\(weaker)")
                let warnings = weaker.stderr.split(separator: "\n").filter { $0.hasPrefix("switchboard: warning: ") }
                #expect(warnings.count == 1, "\(weaker.stderr)")
                #expect(warnings.first?.hasPrefix("switchboard: warning: the store \(server) is reached with sslmode=\(mode), ") == true, "\(weaker.stderr)")
                #expect(warnings.first?.hasSuffix("use sslmode=verify-full (see docs/FLEET.md)") == true, "\(weaker.stderr)")
            }
            // The same server asked for with verify-full is refused as without a mode.
            let verified = try await accounts(server + "?sslmode=verify-full")
            #expect(verified.status == refused.status && verified.stderr.contains("the server offers no TLS"), "\(verified)")
        } catch {
            folder.remove()
            await net.remove()
            throw error
        }
        folder.remove()
        await net.remove()
    }

}
