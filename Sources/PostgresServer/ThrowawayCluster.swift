import Foundation
import Postgres
import ProcessKit
import Synchronization

/// A PostgreSQL server of its own for tests and benchmarks: a fresh cluster
/// (`initdb`) in a temporary folder, `postgres` on a free loopback port with
/// `fsync` off and TLS on (its certificate signed by a throwaway CA made
/// here), and the role `switchboard`, trusted from loopback.
///
/// As root the server runs as the `postgres` user (`runuser`); otherwise
/// as this user. A `Watchdog` stops it (SIGINT, a fast shutdown) and
/// removes the folder when this process stops it or dies.
public final class ThrowawayCluster: Sendable {
    /// The folder holding the data, the log and the TLS files.
    public let folder: String
    /// The port the server listens on (on loopback, or `listening`'s address).
    public let port: Int
    /// Where the server listens instead of loopback; nil for loopback.
    public let listening: Listening?
    /// The throwaway CA that signed the server's certificate (PEM).
    public let caCertificate: String
    /// Another throwaway CA's certificate, which did not sign the server's.
    public let otherCACertificate: String
    /// The server's major version.
    public let version: String
    /// How the server is started.
    private let command: [String]
    /// While the server runs: the write end of its watchdog's pipe, and the watchdog.
    private let running = Mutex<(pipe: Int32, watchdog: pid_t)?>(nil)

    /// The role the cluster was made with (trusted from loopback).
    public static let role = "switchboard"
    /// A role that must give its password (`passwordRoleSecret`), for tests of authentication.
    public static let passwordRole = "switchboard_password"
    /// The password role's password: a throwaway server's, on loopback.
    public static let passwordRoleSecret = "throwaway-secret-4711"
    /// A role name that must give its password too, which the cluster does
    /// not make: for a test that makes a station's role (`fleet add --role`)
    /// and connects with the password it was given.
    public static let stationPasswordRole = "switchboard_station_password"

    /// Makes and starts a cluster in a new folder in `parent` (the
    /// system's temporary folder unless told another, such as a memory
    /// file system); throws, naming what failed, when PostgreSQL's
    /// programs are missing or the server does not start.
    public static func start(in parent: String = NSTemporaryDirectory(), listening: Listening? = nil) throws -> ThrowawayCluster {
        var lastError: any Error = ClusterError("the server did not start")
        // A port taken between choosing it and binding it: a whole new try.
        for _ in 0..<3 {
            do { return try startOnce(in: parent, listening: listening) } catch let error as ClusterError where error.portTaken { lastError = error }
        }
        throw lastError
    }

    /// Where a cluster listens when not on loopback: an address of a
    /// network namespace the caller made (the server runs inside it, its
    /// command prefixed with `launcher`, such as `ip netns exec NAME`),
    /// trusting the role `switchboard` from `clients` (a CIDR block), with
    /// TLS on or off. The cluster's own connections go through its Unix
    /// socket, which no network namespace hides.
    public struct Listening: Sendable {
        public let launcher: [String]
        public let address: String
        public let clients: String
        public let tls: Bool

        public init(launcher: [String], address: String, clients: String, tls: Bool) {
            self.launcher = launcher
            self.address = address
            self.clients = clients
            self.tls = tls
        }
    }

    private static func startOnce(in parent: String, listening: Listening?) throws -> ThrowawayCluster {
        let bin = try binaries()
        let folder = (parent.hasSuffix("/") ? parent : parent + "/") + "switchboard-pg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            let asRoot = geteuid() == 0
            var owner: (uid_t, gid_t)?
            if asRoot {
                guard let entry = getpwnam("postgres") else { throw ClusterError("no user named postgres to run the server as (install postgresql)") }
                owner = (entry.pointee.pw_uid, entry.pointee.pw_gid)
                chown(folder, entry.pointee.pw_uid, entry.pointee.pw_gid)
            }
            let launcher = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
            try makeCertificates(in: folder)
            if let (uid, gid) = owner {
                for file in ["server.key", "server.crt", "ca.crt"] { chown(folder + "/" + file, uid, gid) }
            }
            let initdb = try ChildProcess.run(
                launcher.first ?? bin + "/initdb",
                Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [bin + "/initdb"])
                    + ["-D", folder + "/data", "-U", role, "-A", "trust", "-N", "-E", "UTF8", "--locale=C"],
                environment: ChildProcess.environment(keeping: ["PATH"], adding: [:]), timeout: 120)
            guard initdb.status == 0 else { throw ClusterError("initdb failed (\(initdb.status)): \(initdb.stderr)") }
            // The role that must give a password: the first line that matches wins.
            let hba = folder + "/data/pg_hba.conf"
            let trusted = (try? String(contentsOfFile: hba, encoding: .utf8)) ?? ""
            let network = listening.map { "host all \(role) \($0.clients) trust\n" } ?? ""
            try ("host all \(passwordRole),\(stationPasswordRole) 127.0.0.1/32 scram-sha-256\n" + network + trusted).write(toFile: hba, atomically: false, encoding: .utf8)
            return try ThrowawayCluster(folder: folder, bin: bin, launcher: launcher, port: try freePort(), listening: listening)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    private init(folder: String, bin: String, launcher: [String], port: Int, listening: Listening?) throws {
        self.folder = folder
        self.port = port
        self.listening = listening
        caCertificate = (try? String(contentsOfFile: folder + "/ca.crt", encoding: .utf8)) ?? ""
        otherCACertificate = (try? String(contentsOfFile: folder + "/other-ca.crt", encoding: .utf8)) ?? ""
        version = bin.split(separator: "/").dropLast().last.map(String.init) ?? "?"
        command = (listening?.launcher ?? []) + launcher + [
            bin + "/postgres", "-D", folder + "/data", "-p", String(port), "-c", "listen_addresses=" + (listening?.address ?? "127.0.0.1"),
            "-c", "unix_socket_directories=" + folder, "-c", "fsync=off", "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off", "-c", "max_connections=400", "-c", "ssl=" + (listening?.tls == false ? "off" : "on"),
            "-c", "ssl_cert_file=" + folder + "/server.crt", "-c", "ssl_key_file=" + folder + "/server.key",
            "-c", "shared_buffers=32MB",
        ]
        try startServer()
        let connection = try PGConnection.connect(ownURL(database: "postgres"))
        try connection.execute("CREATE ROLE \(Self.passwordRole) LOGIN PASSWORD '\(Self.passwordRoleSecret)'")
    }

    /// Starts the server (again, after `stopServer()`), under a watchdog of
    /// its own, and waits until it takes connections.
    public func startServer() throws {
        guard running.withLock({ $0 == nil }) else { return }
        // Its postmaster, then what the launcher (runuser, a namespace) started.
        let stop = """
            pid=$(head -n 1 "$folder/data/postmaster.pid" 2>/dev/null)
            [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null
            kill -INT "$launched" 2>/dev/null
            """
        let (descriptor, watchdog) = try Watchdog.start(command, folder: folder, log: "server.log", stop: stop)
        running.withLock { $0 = (descriptor, watchdog) }
        let logStart = (try? FileManager.default.attributesOfItem(atPath: folder + "/server.log")[.size] as? Int) ?? 0
        // Ready when it takes a connection; a log saying the port is taken means another port.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if (try? PGConnection.connect(ownURL(database: "postgres"), timeout: 2)) != nil { break }
            let whole = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            let log = String(whole.utf8.dropFirst(logStart)) ?? whole
            let portTaken = log.contains("could not create any TCP/IP sockets")
            let failed = log.split(separator: "\n").contains { $0.contains("FATAL") && !$0.contains("starting up") }
            if portTaken || failed || Date() > deadline || kill(watchdog, 0) != 0 {
                stopServer()
                throw ClusterError("the server did not start: \(log)", portTaken: portTaken)
            }
            usleep(10_000)
        }
    }

    /// Stops the server (a fast shutdown: its clients are told and cut
    /// off) and waits for it, keeping its data for `startServer()`.
    public func stopServer() { stopWatchdog(removeFolder: false) }

    deinit { stop() }

    /// A URL of `database` on this server, as the role `switchboard`, with
    /// `extra` query parameters (`sslmode=verify-full&sslrootcert=…`).
    public func url(database: String, extra: String = "") -> String {
        "postgresql://\(Self.role)@\(listening?.address ?? "127.0.0.1"):\(port)/\(database)" + (extra.isEmpty ? "" : "?" + extra)
    }

    /// The URL the cluster's own connections use: `url(database:)` on
    /// loopback, else its Unix socket, which reaches into the namespace.
    public func ownURL(database: String) -> String {
        guard listening != nil else { return url(database: database) }
        return "postgresql://\(Self.role)@/\(database)?host=" + folder.replacingOccurrences(of: "/", with: "%2F") + "&port=\(port)"
    }

    /// Makes an empty database (a name of letters, digits and `_`).
    public func createDatabase(_ name: String) throws {
        let connection = try PGConnection.connect(ownURL(database: "postgres"))
        try connection.execute("CREATE DATABASE \(connection.quoted(name))")
    }

    /// Stops the server (a fast shutdown), waits for it and removes the
    /// folder. Calling it again does nothing.
    public func stop() {
        stopWatchdog(removeFolder: true)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func stopWatchdog(removeFolder: Bool) {
        let taken = running.withLock { running in
            defer { running = nil }
            return running
        }
        guard let (descriptor, watchdog) = taken else { return }
        Watchdog.stop(descriptor, watchdog, keepFolder: !removeFolder)
    }

    /// Where PostgreSQL's server programs are: the newest
    /// `/usr/lib/postgresql/*/bin` (Debian), else `pg_config --bindir`'s.
    static func binaries() throws -> String {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap { Int($0) }.sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/postgres") {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        throw ClusterError("PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/postgres); install the postgresql package")
    }

    /// A free loopback port, as the system hands one out (nobody listens on it once this returns).
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError("cannot open a socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw ClusterError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A throwaway CA, the server's key and certificate (for 127.0.0.1 and
    /// localhost) signed by it, and another CA that signed nothing.
    static func makeCertificates(in folder: String) throws {
        let script = """
            set -e
            cd "$1"
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
            key ca.key; key other-ca.key; key server.key
            openssl req -x509 -new -key ca.key -out ca.crt -days 2 -subj "/CN=Switchboard throwaway CA" 2>/dev/null
            openssl req -x509 -new -key other-ca.key -out other-ca.crt -days 2 -subj "/CN=Another throwaway CA" 2>/dev/null
            openssl req -new -key server.key -out server.csr -subj "/CN=127.0.0.1" 2>/dev/null
            printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext 2>/dev/null
            chmod 600 server.key
            rm -f ca.key other-ca.key server.csr server.ext ca.srl
            """
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", script, "switchboard-pg-certificates", folder],
            environment: ChildProcess.environment(keeping: ["PATH"], adding: [:]), timeout: 60)
        guard result.status == 0 else { throw ClusterError("cannot make the TLS files with openssl (\(result.status)): \(result.stderr)") }
    }
}

/// Why a throwaway cluster could not be made or started.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    let portTaken: Bool

    init(_ description: String, portTaken: Bool = false) {
        self.description = description
        self.portTaken = portTaken
    }
}
