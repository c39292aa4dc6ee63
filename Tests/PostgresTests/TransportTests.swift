import Foundation
import Postgres
import PostgresServer
import Testing
import TestSupport

/// How a connection is kept private on the wire (`PGTransport`), and how a
/// URL is read for a password: as libpq reads it.
@Suite("PostgreSQL transport and URL reading")
struct TransportTests {
    /// The transport `url` gets, with `environment` as libpq's variables (none of the test's own).
    func transport(_ url: String, environment: [String: String] = [:]) throws -> PGTransport {
        try PGConnection.transport(of: url, environment: { environment[$0] }).get()
    }

    @Test("without sslmode, another machine is verify-full and this one is libpq's prefer", arguments: [
        ("postgresql://lab@db.example.org/fleet", "verify-full", false),
        ("postgresql://lab@10.20.0.5:5432/fleet", "verify-full", false),
        ("postgresql://lab@[2001:db8::5]/fleet", "verify-full", false),
        ("postgresql://lab@127.0.0.1/fleet", "prefer", true),
        ("postgresql://lab@127.8.9.10:6000/fleet", "prefer", true),
        ("postgresql://lab@[::1]/fleet", "prefer", true),
        ("postgresql://lab@[::ffff:127.0.0.1]/fleet", "prefer", true),
        ("postgresql://lab@LocalHost/fleet", "prefer", true),
        ("postgresql://lab@/fleet", "prefer", true),
        ("postgresql://lab@/fleet?host=%2Fvar%2Frun%2Fpostgresql", "prefer", true),
        ("postgresql://lab@localhost,db.example.org/fleet", "verify-full", false),
        ("postgresql://lab@db.example.org/fleet?hostaddr=127.0.0.1", "prefer", true),
        ("postgresql://lab@localhost/fleet?hostaddr=192.0.2.7", "verify-full", false),
        ("postgresql://lab@/fleet?service=lab", "verify-full", false),
        ("postgresql://lab@db.example.org/fleet?sslmode=require", "require", false),
        ("host=db.example.org user=lab dbname=fleet", "verify-full", false),
        ("host=127.0.0.1 user=lab dbname=fleet", "prefer", true),
    ])
    func defaults(url: String, mode: String, loopback: Bool) throws {
        let found = try transport(url)
        #expect(found.mode == mode, "\(url)")
        #expect(found.isLoopback == loopback, "\(url)")
        #expect(found.warning == nil || found.requestedMode != nil, "\(url)")
    }

    @Test("a weaker mode asked for to another machine is honoured with a one-line warning naming the server and never the password",
          arguments: ["disable", "allow", "prefer", "require", "verify-ca"])
    func weakerModes(mode: String) throws {
        let found = try transport("postgresql://lab:hunter2@db.example.org:6432/fleet?sslmode=\(mode)")
        #expect(found.mode == mode)
        let warning = try #require(found.warning)
        #expect(warning.hasPrefix("the store postgresql://lab@db.example.org:6432/fleet is reached with sslmode=\(mode), "), "\(warning)")
        #expect(!warning.contains("hunter2") && !warning.contains("\n"), "\(warning)")
        #expect(warning.contains("use sslmode=verify-full"))
        // The same mode to this machine's server, or verify-full anywhere, warns of nothing.
        #expect(try transport("postgresql://lab@127.0.0.1/fleet?sslmode=\(mode)").warning == nil)
        #expect(try transport("postgresql://lab@db.example.org/fleet?sslmode=verify-full").warning == nil)
    }

    @Test("libpq's own variables count as asking: PGSSLMODE is a mode asked for, PGHOST and PGHOSTADDR say where")
    func environment() throws {
        let url = "postgresql://lab@/fleet"
        #expect(try transport(url).mode == "prefer")
        #expect(try transport(url, environment: ["PGHOST": "db.example.org"]).mode == "verify-full")
        #expect(try transport(url, environment: ["PGHOST": "db.example.org", "PGHOSTADDR": "127.0.0.1"]).isLoopback)
        let asked = try transport(url, environment: ["PGHOST": "db.example.org", "PGSSLMODE": "disable"])
        #expect(asked.mode == "disable" && asked.warning?.contains("without TLS") == true)
        // The URL's own setting wins over the variable, as in libpq.
        #expect(try transport("postgresql://lab@db.example.org/fleet?sslmode=verify-full", environment: ["PGSSLMODE": "disable"]).warning == nil)
    }

    @Test("a password is found in every spelling libpq reads, and only there", arguments: [
        ("postgresql://lab:hunter2@db.example.org/fleet", true),
        ("postgresql://lab@db.example.org/fleet?password=hunter2", true),
        ("postgresql://lab@db.example.org/fleet?%70assword=hunter2", true),
        ("postgresql://lab@db.example.org/fleet?pass%77ord=hunter2", true),
        ("postgresql://lab@db.example.org/fleet?sslmode=verify-full&password=hunter2", true),
        ("host=db.example.org user=lab password=hunter2", true),
        ("host=db.example.org user=lab password = 'hunter 2'", true),
        ("postgresql://lab@db.example.org/fleet?PASSWORD=hunter2", true),  // libpq cannot read it: counted as one
        ("postgresql://lab:@db.example.org/fleet", false),
        ("postgresql://lab@db.example.org/fleet?passfile=/etc/switchboard/pgpass", false),
        ("postgresql://db/fleet?application_name=password%3Dx", false),
        ("host=db.example.org user=lab", false),
    ])
    func passwords(url: String, carries: Bool) {
        #expect(PGConnection.carriesPassword(url) == carries, "\(url)")
    }

    @Test("the URL's parameters are libpq's reading: percent escapes decoded, a key=value string alike")
    func parameters() throws {
        let uri = try PGConnection.parameters(of: "postgresql://l%61b@db.example.org:6432/fl%65et?sslmode=verify-full").get()
        #expect(uri["user"] == "lab" && uri["dbname"] == "fleet" && uri["port"] == "6432" && uri["sslmode"] == "verify-full")
        let pairs = try PGConnection.parameters(of: "host=db.example.org dbname='my fleet'").get()
        #expect(pairs["host"] == "db.example.org" && pairs["dbname"] == "my fleet")
        guard case .failure(let error) = PGConnection.parameters(of: "postgresql://lab:hunter2@db/fleet?nonsense=1") else {
            Issue.record("an unknown keyword was read")
            return
        }
        #expect(error.kind == .badURL && !error.description.contains("hunter2"), "\(error)")
    }

    @Test("on this machine nothing changes: the test server, with no sslmode, is reached as libpq's prefer does, over its TLS")
    func loopbackUnchanged() throws {
        let url = try TestPostgres.database(for: #fileID)
        #expect(try transport(url).mode == "prefer")
        let connection = try PGConnection.connect(url)
        #expect(connection.usesTLS)
        #expect(try connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").text(0, 0) == "t")
    }
}
