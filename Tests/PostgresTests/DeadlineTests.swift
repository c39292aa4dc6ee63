import Foundation
import Postgres
import PostgresServer
import Testing
import TestBasics
import TestSupport

/// A connection's deadline: a server that stops answering but keeps its
/// connections (a fault proxy between them holds every byte, as a paused
/// server does) is given up on, the statement cancelled and the connection
/// closed; a lock held elsewhere is answered as busy, the connection kept.
@Suite("PostgreSQL deadlines")
struct DeadlineTests {
    /// The suite's database, reached through a fault proxy of its own.
    func throughProxy() throws -> (FaultProxy, String, direct: String) {
        let url = try TestPostgres.database(for: #fileID)
        let cluster = try TestPostgres.cluster()
        let proxy = try FaultProxy(to: cluster.port)
        return (proxy, url.replacingOccurrences(of: ":\(cluster.port)/", with: ":\(proxy.port)/"), url)
    }

    @Test("a silent server: the statement ends as timed out within its deadline, the connection closed; the server is usable again once it answers")
    func silentServer() async throws {
        let (proxy, url, _) = try throughProxy()
        defer { proxy.stop() }
        let connection = try PGConnection.connect(url, deadline: 1)
        #expect(try connection.query("SELECT 1").text(0, 0) == "1")
        proxy.set(.hold)
        // Timed on the thread that waits: the test's own resumption after it is no part of the wait.
        let (error, waited) = try await offThePool { () -> (PGError?, Duration) in
            let started = ContinuousClock.now
            do throws(PGError) {
                _ = try connection.query("SELECT 2")
                return (nil, started.duration(to: .now))
            } catch {
                return (error, started.duration(to: .now))
            }
        }
        #expect(error?.kind == .timedOut && error?.isOffline == true, "\(String(describing: error))")
        #expect(error?.description.contains("no answer within 1 s") == true, "\(String(describing: error))")
        // Given up on: not the minutes TCP would take (a generous bound; the deadline is 1 s).
        #expect(waited < .seconds(10), "\(waited)")
        #expect(!connection.isConnected)
        // A new connection while the server is silent: given up on as well.
        let refused = try await offThePool { () -> PGError? in
            do throws(PGError) {
                _ = try PGConnection.connect(url, deadline: 1)
                return nil
            } catch {
                return error
            }
        }
        #expect(refused?.isOffline == true, "\(String(describing: refused))")
        proxy.set(.pass)
        let again = try await offThePool { try PGConnection.connect(url, deadline: 1) }
        #expect(try again.query("SELECT 3").text(0, 0) == "3")
    }

    @Test("a lock held elsewhere is waited for a little less than the deadline: busy, and the connection is kept")
    func lockHeldElsewhere() async throws {
        let (proxy, _, direct) = try throughProxy()
        defer { proxy.stop() }
        let holder = try PGConnection.connect(direct)
        try holder.execute("BEGIN; SELECT pg_advisory_xact_lock(424242)")
        defer { _ = try? holder.execute("ROLLBACK") }
        let waiter = try PGConnection.connect(direct, deadline: 1)
        let error = try await offThePool { () -> PGError? in
            do throws(PGError) {
                try waiter.execute("BEGIN; SELECT pg_advisory_xact_lock(424242)")
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.kind == .busy && error?.isOffline == true, "\(String(describing: error))")
        try waiter.execute("ROLLBACK")
        #expect(waiter.isConnected)
        #expect(try waiter.query("SELECT 4").text(0, 0) == "4")
    }

    @Test("a transaction a silent client left open (a paused station holding the fleet's lock) is ended by the server after five deadlines")
    func pausedHolderLetsGo() async throws {
        let (proxy, url, direct) = try throughProxy()
        defer { proxy.stop() }
        let paused = try PGConnection.connect(url, deadline: 1)
        try paused.execute("BEGIN; SELECT pg_advisory_xact_lock(434343)")
        proxy.set(.hold)
        let other = try PGConnection.connect(direct)
        #expect(try other.query("SELECT pg_try_advisory_lock(434343)").text(0, 0) == "f", "held while the holder is only silent")
        let started = ContinuousClock.now
        var free = false
        while !free, started.duration(to: .now) < .seconds(PGConnection.idleTransactionDeadlines + 5) {
            free = try other.query("SELECT pg_try_advisory_lock(434343)").text(0, 0) == "t"
            if !free { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(free, "the server ended the silent holder's session")
        #expect(started.duration(to: .now) >= .seconds(PGConnection.idleTransactionDeadlines - 1))
    }

    @Test("a connection goes by the name it is given in pg_stat_activity (a station's), unless the URL names one")
    func applicationName() throws {
        let url = try TestPostgres.database(for: #fileID)
        let named = try PGConnection.connect(url, applicationName: "switchboard lab-3")
        #expect(try named.query("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()").text(0, 0) == "switchboard lab-3")
        let own = try PGConnection.connect(TestPostgres.adding("application_name=lab-tool", to: url), applicationName: "switchboard lab-3")
        #expect(try own.query("SHOW application_name").text(0, 0) == "lab-tool")
    }

    @Test("a full server (the role's connection limit reached) is offline, not an error of the store")
    func fullServer() throws {
        let cluster = try TestPostgres.cluster()
        let admin = try PGConnection.connect(cluster.url(database: "postgres"))
        let role = "limited_\(UInt32.random(in: 0...UInt32.max))"
        try admin.execute("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1; GRANT CONNECT ON DATABASE postgres TO \(role)")
        defer { _ = try? admin.execute("DROP ROLE \(role)") }
        let url = cluster.url(database: "postgres").replacingOccurrences(of: "://\(ThrowawayCluster.role)@", with: "://\(role)@")
        let first = try PGConnection.connect(url)
        defer { first.close() }
        do throws(PGError) {
            _ = try PGConnection.connect(url)
            Issue.record("a second connection past the role's limit was let in")
        } catch {
            #expect(error.kind == .full && error.isOffline, "\(error)")
        }
    }
}
