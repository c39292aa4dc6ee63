import Foundation
import Postgres
import ProcessKit
import Synchronization

/// PgBouncer in transaction pooling in front of a `ThrowawayCluster`'s
/// database, on a free loopback port, for tests and benchmarks of stations
/// that share server connections (`[store] watch = "poll"`). The role
/// `switchboard` is trusted, as the cluster trusts it; at most
/// `serverConnections` server connections carry every client. As root it
/// runs as the `postgres` user; a `Watchdog` stops it when this process
/// stops it or dies.
public final class ThrowawayPooler: Sendable {
    public let port: Int
    private let folder: String
    private let database: String
    private let running: (descriptor: Int32, watchdog: pid_t)
    private let stopped = Mutex(false)

    /// Starts PgBouncer for `database` of `cluster` and waits until it takes connections.
    public init(for cluster: ThrowawayCluster, database: String, serverConnections: Int = 5, in parent: String = NSTemporaryDirectory()) throws {
        let program = "/usr/sbin/pgbouncer"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ClusterError("PgBouncer is not installed (no \(program)); install the pgbouncer package")
        }
        folder = (parent.hasSuffix("/") ? parent : parent + "/") + "switchboard-pgbouncer-" + UUID().uuidString
        self.database = database
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        port = try ThrowawayCluster.freePort()
        let settings = """
            [databases]
            \(database) = host=127.0.0.1 port=\(cluster.port) dbname=\(database) pool_size=\(serverConnections)

            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(folder)/users.txt
            pool_mode = transaction
            max_client_conn = 2000
            default_pool_size = \(serverConnections)
            server_tls_sslmode = disable
            ignore_startup_parameters = extra_float_digits
            logfile = \(folder)/pgbouncer.log
            pidfile = \(folder)/pgbouncer.pid

            """
        try settings.write(toFile: folder + "/pgbouncer.ini", atomically: false, encoding: .utf8)
        try "\"\(ThrowawayCluster.role)\" \"\"\n".write(toFile: folder + "/users.txt", atomically: false, encoding: .utf8)
        var launcher: [String] = []
        if geteuid() == 0 {
            // PgBouncer refuses to run as root.
            guard let entry = getpwnam("postgres") else { throw ClusterError("no user named postgres to run PgBouncer as (install postgresql)") }
            for path in [folder, folder + "/pgbouncer.ini", folder + "/users.txt"] { chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) }
            launcher = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        }
        running = try Watchdog.start(launcher + [program, folder + "/pgbouncer.ini"], folder: folder, log: "output.log", stop: "kill -TERM \"$launched\" 2>/dev/null")
        let url = url()
        let deadline = Date().addingTimeInterval(30)
        while (try? PGConnection.connect(url, timeout: 2)) == nil {
            guard Date() < deadline, kill(running.watchdog, 0) == 0 else {
                let log = (try? String(contentsOfFile: folder + "/output.log", encoding: .utf8)) ?? ""
                stop()
                throw ClusterError("PgBouncer did not start: \(log)")
            }
            usleep(10_000)
        }
    }

    deinit { stop() }

    /// The pooled database's URL, as the role `switchboard`.
    public func url() -> String {
        "postgresql://\(ThrowawayCluster.role)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Stops PgBouncer and removes its folder. Calling it again does nothing.
    public func stop() {
        guard !stopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
        Watchdog.stop(running.descriptor, running.watchdog, keepFolder: false)
    }
}
