import Foundation
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("Copying a store whole", .onOwnThreads)
struct StoreCopyTests {
    /// Ada (github + google, a token, a favourite, a PIN with two wrong tries) and Grace, some sessions, the operator PIN.
    func populate(_ db: AppDatabase) throws -> (ada: AccountID, grace: AccountID) {
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: terminal1)
        _ = try db.switchAccount(to: ids[0], session: terminal1)
        _ = try db.signIn(Sample.adaGoogle, mode: .link, session: terminal1, tokens: TokenSet(accessToken: "access-1", refreshToken: "refresh-1"))
        try db.setFavourite("sky-at-night", starred: true, for: ids[0])
        try db.setPIN("2468", for: .account(ids[0]), proof: nil)
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        for _ in 0..<2 { _ = try? db.switchAccount(to: ids[0], session: terminal2, pin: .account("0000")) }
        _ = try db.switchAccount(to: ids[1], session: terminal2)
        return (ids[0], ids[1])
    }

    @Test("the copy's tables name every column of every table the migrations make", arguments: Engine.allCases)
    func everyColumn(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        for table in CopiedTables.tables {
            let sql = engine == .sqlite
                ? "SELECT name FROM pragma_table_info('\(table.name)')"
                : "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table.name.lowercased())'"
            let columns = Set(try fixture.rows(sql).map { $0[0].lowercased() })
            #expect(columns == Set(table.columns.map { $0.0.lowercased() }), "\(table.name)")
        }
    }

    @Test("SQLite to PostgreSQL and back: everything arrives, ids and counts too, and new ids follow the copied ones")
    func roundTrip() throws {
        let file = try Fixture(.sqlite), server = try Fixture(.postgres)
        let (ada, grace) = try populate(file.database)
        let report = try file.database.copy(to: server.database)
        #expect(report.tables.map(\.table) == ["account", "identity", "credential", "session", "favourite", "providerData", "pin", "event", "station"])
        #expect(report.tables.first { $0.table == "event" }?.rows == (try file.database.eventCount()))
        let shared = server.database
        #expect(try shared.accounts() == file.database.accounts())
        #expect(try shared.active(in: terminal1).id == ada && shared.active(in: terminal2).id == grace)
        #expect(try shared.favourites(of: ada) == ["sky-at-night"])
        #expect(try shared.credential(for: Sample.adaGoogle.identity)?.refreshToken == "refresh-1")
        #expect(try shared.pinAttempts(of: .account(ada)).failures == 2)
        #expect(try shared.protectedAccounts() == [ada] && shared.hasPIN(.operatorPIN))
        #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: nil)) {
            try shared.switchAccount(to: ada, session: terminal2, pin: .account("1111"))
        }
        #expect(try shared.pinAttempts(of: .account(ada)).failures == 3, "the count goes on from the copied one")
        // A new account and event get ids after the copied ones.
        let newcomer = try Sample.signIn([Sample.graceMicrosoft], into: shared, session: SessionKey("lab-3/tty1")!)[0]
        #expect(newcomer.rawValue > max(ada.rawValue, grace.rawValue))

        // And back into a new file: the same rows as the first file, but for what happened since.
        let back = try Fixture(.sqlite)
        _ = try shared.copy(to: back.database)
        #expect(try back.database.accounts() == shared.accounts())
        let again = try Fixture(.sqlite), twice = try Fixture(.postgres)
        _ = try populate(again.database)
        _ = try again.database.copy(to: twice.database)
        let third = try Fixture(.sqlite)
        _ = try twice.database.copy(to: third.database)
        #expect(try third.dump() == again.dump(), "SQLite to PostgreSQL to SQLite changes no row")
    }

    @Test("only into an empty store; a failure on the way leaves the target as it was", arguments: Engine.allCases)
    func emptyTargetAndAtomic(_ engine: Engine) throws {
        let source = try Fixture(.sqlite), target = try Fixture(engine)
        _ = try populate(source.database)
        try Sample.signIn([Sample.graceMicrosoft], into: target.database, session: terminal1)
        let before = try target.dump()
        #expect(throws: StoreError.self) { try source.database.copy(to: target.database) }
        #expect(try target.dump() == before)

        let empty = try Fixture(engine)
        try empty.failNext("INSERT", on: "event")
        #expect(throws: StoreError.self) { try source.database.copy(to: empty.database) }
        try empty.clearFailure()
        #expect(try empty.dump() == "", "not one row of any table")
        _ = try source.database.copy(to: empty.database)
        #expect(try empty.database.accounts() == source.database.accounts())
    }
}
