import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// Reading a roster one account or one page at a time: finding by what a
/// person types, pages in either order, and the whole list as a stream.
@Suite("finding one account and reading pages", .onOwnThreads)
struct RosterReadTests {
    static let zoe = LinkedIdentity(
        identity: Identity(provider: "gitlab", subject: "zoe"), displayName: "Zoë ÅNGSTRÖM", email: "Zoë@Example.SE", emailVerified: false)

    @Test("an account is found by id, by provider:subject, by name or by any identity's email, case folded (Unicode too); several or none say so")
    func find() throws {
        let fixture = try Fixture(), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub, Self.zoe], into: db, session: terminal1)
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1)  // linked to Zoë's account, active now? No: the last sign-in's.
        #expect(try db.findAccount(ids[1].description).id == ids[1])
        #expect(try db.findAccount("github:1024").id == ids[1])
        #expect(try db.findAccount("GRACE hopper").id == ids[1])
        #expect(try db.findAccount("zoë ångström").id == ids[2], "non-ASCII letters fold too")
        #expect(try db.findAccount("zoë@example.se").id == ids[2], "an unverified email counts")
        #expect(try db.findAccount("google:107691503500061507151").id == ids[2], "a linked identity names its account")
        #expect(throws: StoreError.accountNotFound("nobody")) { try db.findAccount("nobody") }
        #expect(throws: StoreError.accountNotFound("github:1")) { try db.findAccount("github:1") }
        // Ada's email is also on the identity linked to Zoë's account: two accounts.
        do {
            _ = try db.findAccount("ADA@example.org")
            Issue.record("expected an ambiguous match")
        } catch StoreError.ambiguousAccount(_, let candidates) {
            // Each with an email, to tell two of one name apart.
            #expect(Set(candidates) == ["\(ids[0]) Ada Lovelace <ada@example.org>", "\(ids[2]) Zoë ÅNGSTRÖM <Zoë@Example.SE>"])
        }
    }

    @Test("the lookups and both orders use indexes, not a scan of every account")
    func indexed() throws {
        let fixture = try Fixture()
        func plan(_ sql: String) throws -> String {
            // The store's statements number their parameters ($1), as SQLite reads them.
            let numbered = SQLiteConnection.numbered(sql)
            return try fixture.database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + numbered, arguments: StatementArguments(
                    Array(repeating: "x", count: numbered.filter { $0 == "?" }.count))).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        #expect(try plan(AccountLookupSQL.byNameOrEmail).contains("account_by_name"))
        #expect(try plan(AccountLookupSQL.byNameOrEmail).contains("identity_by_email"))
        #expect(try plan("SELECT id, name FROM account ORDER BY \(AccountPageSQL.orderBy(.name))").contains("COVERING INDEX account_by_name"))
        #expect(try plan("SELECT id, name FROM account ORDER BY \(AccountPageSQL.orderBy(.recentUse))").contains("COVERING INDEX account_listed"))
        for order in [AccountOrder.recentUse, .name] {
            let stream = try plan(AccountPageSQL.stream(order))
            #expect(stream.contains("COVERING INDEX identity_by_account") && !stream.contains("TEMP B-TREE"), "\(order): \(stream)")
        }
    }

    @Test("pages in the listed order and by name agree with the whole list; the stream gives every account once, as accounts() does")
    func pages() throws {
        let fixture = try Fixture(), db = fixture.database
        let people = (0..<40).map { index in
            LinkedIdentity(
                identity: Identity(provider: "demo", subject: "p\(index)"), displayName: index % 3 == 0 ? "émile \(index)" : "Person \(index % 7)",
                email: "p\(index)@example.org", emailVerified: true)
        }
        let ids = try Sample.signIn(people, into: db, session: terminal1)
        _ = try db.switchAccount(to: ids[5], session: terminal2, at: Date().addingTimeInterval(60))
        let all = try db.accounts()
        #expect(try db.accountCount() == 40)
        #expect(try db.accountIDs(in: .recentUse) == all.map(\.id))
        #expect(try db.accountPage(in: .recentUse, offset: 10, limit: 7) == Array(all[10..<17]))
        #expect(try db.accountPage(in: .recentUse, offset: 38, limit: 7) == Array(all[38...]))
        let byName = all.sorted { a, b in
            let (x, y) = (Array(AccountOrder.nameKey(a.name).utf8), Array(AccountOrder.nameKey(b.name).utf8))
            return x != y ? x.lexicographicallyPrecedes(y) : a.id < b.id
        }
        #expect(try db.accountIDs(in: .name) == byName.map(\.id))
        #expect(try db.accountPage(in: .name, offset: 0, limit: 3) == Array(byName[0..<3]))
        var streamed: [Account] = []
        try db.forEachAccount { streamed.append($0) }
        #expect(streamed == all)
        #expect(try db.accounts(ids: [ids[3], AccountID(9999), ids[1]]).map(\.id) == [ids[3], ids[1]])
        let signedIn = try db.accounts(signedInAt: "demo", except: ids[5], in: .recentUse, limit: 3)
        #expect(signedIn.map(\.id) == all.filter { $0.id != ids[5] }.prefix(3).map(\.id))
        #expect(try db.accounts(signedInAt: "github", except: nil, in: .recentUse, limit: 3).isEmpty)
    }

    @Test("a database from before the search keys gets them on open, filled from the names and emails it holds")
    func upgradesKeys() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let old = try DatabaseQueue(path: path)
        try migrator.migrate(old, upTo: StoreSchema.migrations[4])
        try old.write { db in
            try db.execute(sql: "INSERT INTO account (id, name, createdAt, useCount) VALUES (1, 'ÉMILE Zola', '2026-01-01 00:00:00.000', 3)")
            try db.execute(sql: """
                INSERT INTO identity (provider, subject, accountId, email, state, linkedAt)
                VALUES ('demo', 'e', 1, 'Emile@Example.ORG', 'authorized', '2026-01-01 00:00:00.000')
                """)
        }
        try old.close()
        let database = try AppDatabase(path: path)
        #expect(try database.findAccount("émile zola").id == AccountID(1))
        #expect(try database.findAccount("emile@example.org").id == AccountID(1))
    }
}
