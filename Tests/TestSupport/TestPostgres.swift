import Foundation
import Postgres
import PostgresServer
import Synchronization

/// The test run's one PostgreSQL server: a `ThrowawayCluster` started on
/// first use and stopped when the process exits (its watchdog stops it too
/// should the process die). Each suite gets a database of its own, made
/// once; each store a test opens is a fresh schema in it.
public enum TestPostgres {
    /// Held while a database is made, so that two suites' tests never make one twice.
    private static let creating = Mutex(())
    private static let state = Mutex<(cluster: ThrowawayCluster?, failure: String?, databases: Set<String>)>((nil, nil, []))

    /// The server, started on first use. A server that cannot start fails
    /// the test that asked, with the reason: tests never skip for want of it.
    public static func cluster() throws -> ThrowawayCluster {
        try state.withLock { state in
            if let cluster = state.cluster { return cluster }
            if let failure = state.failure { throw ClusterFailure(description: failure) }
            do {
                let cluster = try ThrowawayCluster.start(in: scratchFolder)
                state.cluster = cluster
                atexit { TestPostgres.stop() }
                return cluster
            } catch {
                state.failure = "cannot start a PostgreSQL server for the tests: \(error)"
                throw ClusterFailure(description: state.failure!)
            }
        }
    }

    /// Stops the server, if it was started.
    public static func stop() {
        let cluster = state.withLock { state in
            defer { state.cluster = nil }
            return state.cluster
        }
        cluster?.stop()
    }

    /// The URL of `suite`'s own database, made on first use (its name from
    /// `suite`, such as a test file's `#fileID`).
    public static func database(for suite: String) throws -> String {
        let cluster = try cluster()
        let name = "t_" + String(suite.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(50))
        try creating.withLock { _ in
            guard !state.withLock({ $0.databases.contains(name) }) else { return }
            try cluster.createDatabase(name)
            state.withLock { _ = $0.databases.insert(name) }
        }
        return cluster.url(database: name)
    }

    /// A URL of a fresh, empty schema in `suite`'s database: a store of its own.
    public static func freshStore(suite: String) throws -> String {
        let database = try database(for: suite)
        let schema = "s_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try schemaMakers.withLock { makers in
            // One connection per database makes its schemas, kept open: every
            // connection is a server process forked and set up.
            if let connection = makers[database], (try? connection.execute("CREATE SCHEMA \(schema)")) != nil { return }
            let connection = try PGConnection.connect(database)
            try connection.execute("CREATE SCHEMA \(schema)")
            makers[database] = connection
        }
        return database + "?options=-csearch_path%3D" + schema
    }

    /// The connection that makes each database's schemas, by URL.
    private static let schemaMakers = Mutex<[String: PGConnection]>([:])

    /// `url` with `extra` query parameters added.
    public static func adding(_ extra: String, to url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + extra
    }

    struct ClusterFailure: Error, CustomStringConvertible {
        let description: String
    }
}
