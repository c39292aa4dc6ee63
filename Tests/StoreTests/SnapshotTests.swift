import Foundation
import GRDB
import Store
import StoreSnapshot
import SwitchboardCore
import Testing
import TestSupport

/// The launcher's read of the store (SQLite's C API) against `Store`'s (GRDB).
@Suite("The launcher's quick read of the store")
struct SnapshotTests {
    let folder = TemporaryFolder()
    var path: String { folder.file("switchboard.sqlite") }
    let session = SessionKey("pts/1")!
    let elsewhere = SessionKey("pts/9")!

    /// Ada is the machine default and the least recent; Grace, Alan and
    /// Barbara follow in session pts/1, each more recent than the last.
    func populate() throws -> (AppDatabase, ada: AccountID, barbara: AccountID) {
        let database = try AppDatabase(path: path)
        let ada = try Sample.signIn([Sample.adaGitHub], into: database, session: session)[0]
        _ = try database.signIn(Sample.adaGoogle, mode: .link, session: session)
        _ = try database.switchAccount(to: ada, session: .machine, at: Date(timeIntervalSinceNow: -3600))
        let others = try Sample.signIn([Sample.graceGitHub, person("alan"), person("barbara")], into: database, session: session)
        try database.setFavourite("news", starred: true, for: ada)
        try database.setFavourite("quiz", starred: true, for: others[2])
        return (database, ada, others[2])
    }

    func person(_ name: String) -> LinkedIdentity {
        LinkedIdentity(identity: Identity(provider: "demo", subject: name), displayName: name.capitalized, email: "\(name)@example.org",
                       emailVerified: true, state: name == "alan" ? .revoked : .authorized)
    }

    @Test("without a limit it reads what Store reads: the accounts in order with their identities, who is active, their favourites")
    func sameAsStore() throws {
        let (database, _, barbara) = try populate()
        for key in [session, elsewhere] {
            let snapshot = try #require(StoreSnapshot.read(path: path, session: key))
            let active = try database.active(in: key)
            #expect(snapshot.accounts == (try database.accounts()))
            #expect(snapshot.total == snapshot.accounts.count)
            #expect(snapshot.active == active)
            #expect(snapshot.favourites == (try active.id.map { try database.favourites(of: $0) } ?? []))
        }
        #expect(StoreSnapshot.read(path: path, session: session)?.active.id == barbara)
    }

    @Test("with a limit: the first accounts, how many there are, and the active account even when it is not among the first")
    func limited() throws {
        let (database, ada, _) = try populate()
        let all = try database.accounts()
        #expect(all.last?.id == ada)
        let snapshot = try #require(StoreSnapshot.read(path: path, session: elsewhere, limit: 2))
        #expect(snapshot.accounts == Array(all.prefix(2)))
        #expect(snapshot.total == all.count)
        #expect(snapshot.active == .account(all.last!))
        #expect(snapshot.active.account?.identities.count == 2)
        #expect(snapshot.favourites == ["news"])
    }

    @Test("the first accounts come from the index in their order: the table is not sorted, however many accounts there are")
    func readsInIndexOrder() throws {
        _ = try populate()
        let plan = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + StoreSchema.accountsSQL(filter: nil, limited: true), arguments: [40])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INDEX account_in_listed_order") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("nil for anything but a current Switchboard database: none, another application's, an unknown migration")
    func refuses() throws {
        #expect(StoreSnapshot.read(path: path, session: session) == nil)
        let other = folder.file("other.sqlite")
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT)") }
        #expect(StoreSnapshot.read(path: other, session: session) == nil)
        _ = try populate()
        #expect(StoreSnapshot.read(path: path, session: session) != nil)
        try DatabaseQueue(path: path).write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        #expect(StoreSnapshot.read(path: path, session: session) == nil)
    }
}
