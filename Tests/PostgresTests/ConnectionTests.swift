import Foundation
import Postgres
import PostgresServer
import Testing
import TestSupport

/// libpq through `PGConnection`, against the test run's own server: what
/// goes wrong is said in words, naming the server and never the password.
@Suite("PostgreSQL connections")
struct ConnectionTests {
    /// The run's server, and a URL of a database made for this suite.
    func server() throws -> (ThrowawayCluster, String) {
        let url = try TestPostgres.database(for: #fileID)
        return (try TestPostgres.cluster(), url)
    }

    func failure(_ url: String, minimumVersion: Int32 = PGConnection.minimumServerVersion) -> PGError? {
        do throws(PGError) {
            _ = try PGConnection.connect(url, minimumVersion: minimumVersion)
            return nil
        } catch {
            return error
        }
    }

    @Test("a port nobody listens on: refused, naming the server")
    func refused() throws {
        let port = try ThrowawayCluster.freePort()
        let error = try #require(failure("postgresql://lab@127.0.0.1:\(port)/fleet"))
        #expect(error.kind == PGError.Kind.refused && error.isOffline)
        #expect(error.description.hasPrefix("postgresql://lab@127.0.0.1:\(port)/fleet: connection refused"), "\(error)")
    }

    @Test("a wrong password: authentication failed, and the password is nowhere in the message; the right one from a passfile connects")
    func authentication() throws {
        let (cluster, _) = try server()
        let role = ThrowawayCluster.passwordRole
        let wrong = "wrong-password-9876"
        let error = try #require(failure("postgresql://\(role):\(wrong)@127.0.0.1:\(cluster.port)/postgres"))
        #expect(error.kind == .authenticationFailed, "\(error)")
        #expect(error.description.hasPrefix("postgresql://\(role)@127.0.0.1:\(cluster.port)/postgres: authentication failed"), "\(error)")
        #expect(!error.description.contains(wrong))
        let missing = try #require(failure("postgresql://\(role)@127.0.0.1:\(cluster.port)/postgres?passfile=/nonexistent"))
        #expect(missing.kind == .authenticationFailed, "\(missing)")

        let folder = TemporaryFolder()
        defer { folder.remove() }
        let passfile = folder.file("pgpass")
        try "127.0.0.1:\(cluster.port):*:\(role):\(ThrowawayCluster.passwordRoleSecret)\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        chmod(passfile, 0o600)
        let connection = try PGConnection.connect("postgresql://\(role)@127.0.0.1:\(cluster.port)/postgres?passfile=\(passfile)")
        #expect(try connection.query("SELECT current_user").text(0, 0) == role)
    }

    @Test("a database that does not exist: database missing")
    func databaseMissing() throws {
        let (cluster, _) = try server()
        let error = try #require(failure(cluster.url(database: "no_such_database")))
        #expect(error.kind == .databaseMissing, "\(error)")
        #expect(error.description.contains("/no_such_database: database missing"), "\(error)")
    }

    @Test("verify-full with the fleet's CA connects over TLS; a certificate from another CA is not trusted, before any statement")
    func certificates() throws {
        let (cluster, url) = try server()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try cluster.caCertificate.write(toFile: folder.file("ca.crt"), atomically: true, encoding: .utf8)
        try cluster.otherCACertificate.write(toFile: folder.file("other.crt"), atomically: true, encoding: .utf8)
        let trusted = try PGConnection.connect(TestPostgres.adding("sslmode=verify-full&sslrootcert=\(folder.file("ca.crt"))", to: url))
        #expect(try trusted.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").text(0, 0) == "t")
        let error = try #require(failure(TestPostgres.adding("sslmode=verify-full&sslrootcert=\(folder.file("other.crt"))", to: url)))
        #expect(error.kind == .certificateNotTrusted, "\(error)")
        #expect(error.description.contains("certificate not trusted"), "\(error)")
        // The wrong name for the right certificate is refused too.
        let wrongHost = url.replacingOccurrences(of: "127.0.0.1", with: "127.0.0.2")
        let mismatch = try #require(failure(TestPostgres.adding(
            "sslmode=verify-full&sslrootcert=\(folder.file("ca.crt"))&hostaddr=127.0.0.1", to: wrongHost)))
        #expect(mismatch.kind == .certificateNotTrusted, "\(mismatch)")
    }

    @Test("a server older than the client supports: server too old, with its version")
    func tooOld() throws {
        let (_, url) = try server()
        let error = try #require(failure(url, minimumVersion: 990_000))
        guard case .serverTooOld(let version) = error.kind else { Issue.record("\(error)"); return }
        #expect(version.hasPrefix("1"), "\(version)")
        #expect(error.description.contains("server too old (PostgreSQL \(version)"), "\(error)")
    }

    @Test("a URL libpq cannot read is refused without repeating it")
    func badURL() {
        let error = PGConnection.describe("postgresql://lab:hunter2@[::1/x")
        guard case .failure(let failure) = error else { Issue.record("no error"); return }
        #expect(failure.kind == .badURL && !failure.description.contains("hunter2"), "\(failure)")
    }

    @Test("values travel only as parameters: quotes, backslashes, bytes, times and NULL come back as sent; a NUL in text is refused")
    func parameters() throws {
        let (_, url) = try server()
        let connection = try PGConnection.connect(url)
        let hostile = "Robert'); DROP TABLE account; -- \\ \"x\""
        let result = try connection.query(
            "SELECT $1::text, $2::bytea, $3::timestamptz, $4::text IS NULL",
            [PGParameter(type: PGType.text, text: hostile), PGParameter(type: PGType.bytea, text: "\\x00ff10"),
             PGParameter(type: PGType.timestamptz, text: "2031-05-01 12:34:56.789012+00"), PGParameter(type: PGType.text, text: nil)])
        #expect(result.text(0, 0) == hostile)
        #expect(result.text(0, 1) == "\\x00ff10")
        #expect(result.text(0, 2) == "2031-05-01 12:34:56.789012+00")
        #expect(result.text(0, 3) == "t")
        #expect(throws: PGError.self) { try connection.query("SELECT $1::text", [PGParameter(type: PGType.text, text: "a\u{0}b")]) }
        let statement = try #require(catching { () throws(PGError) in try connection.query("SELECT * FROM no_such_table") })
        #expect(statement.kind == PGError.Kind.statement(sqlState: "42P01"), "\(statement)")
    }

    @Test("a statement run again is prepared once and then reused, values still as parameters; one whose table changed shape fails once, then runs prepared afresh")
    func preparedStatements() throws {
        let (_, url) = try server()
        let connection = try PGConnection.connect(url)
        try connection.execute("DROP TABLE IF EXISTS prepared_probe; CREATE TABLE prepared_probe (k text PRIMARY KEY, v int)")
        defer { _ = try? connection.execute("DROP TABLE IF EXISTS prepared_probe") }
        func kept() throws -> [String] {
            let result = try connection.query("SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared_probe%' AND statement NOT LIKE '%pg_prepared_statements%'")
            return (0..<result.rowCount).compactMap { result.text($0, 0) }
        }
        let insert = "INSERT INTO prepared_probe (k, v) VALUES ($1, $2)"
        let select = "SELECT * FROM prepared_probe WHERE k = $1"
        func row(_ key: String) throws -> [String?] {
            let result = try connection.query(select, [PGParameter(type: PGType.text, text: key)])
            return result.rowCount == 0 ? [] : (0..<result.columnCount).map { result.text(0, $0) }
        }
        _ = try connection.query(insert, [PGParameter(type: PGType.text, text: "a"), PGParameter(type: PGType.int4, text: "1")])
        #expect(try kept().isEmpty, "a statement run once is not kept")
        for (key, value) in [("b'); DROP TABLE prepared_probe; --", "2"), ("c", "3")] {
            _ = try connection.query(insert, [PGParameter(type: PGType.text, text: key), PGParameter(type: PGType.int4, text: value)])
        }
        #expect(try kept() == [insert])
        #expect(try row("b'); DROP TABLE prepared_probe; --") == ["b'); DROP TABLE prepared_probe; --", "2"])
        #expect(try row("c") == ["c", "3"])
        #expect(Set(try kept()) == [insert, select])

        // Another process (a newer version's migration) adds a column the kept plan does not return.
        let other = try PGConnection.connect(url)
        try other.execute("ALTER TABLE prepared_probe ADD COLUMN w int DEFAULT 7")
        let stale = try #require(catching { () throws(PGError) in try connection.query(select, [PGParameter(type: PGType.text, text: "c")]) })
        #expect(stale.isStalePlan, "\(stale)")
        #expect(try row("c") == ["c", "3", "7"], "run unnamed, then prepared again")
        #expect(try row("a") == ["a", "1", "7"])
    }

    func catching(_ body: () throws(PGError) -> PGResult) -> PGError? {
        do throws(PGError) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
