import Foundation
import GRDB
import SwitchboardCore

extension AppDatabase {
    /// Every account with its identities, most recently and most often used
    /// first.
    public func accounts() throws(StoreError) -> [Account] {
        try read { db in try Self.loadAccounts(db) }
    }

    /// One account, or nil when there is none with that id.
    public func account(_ id: AccountID) throws(StoreError) -> Account? {
        try read { db in try Self.loadAccounts(db, ids: [id.rawValue]).first }
    }

    /// The account `identity` belongs to, or nil when nobody has it.
    public func account(owning identity: Identity) throws(StoreError) -> Account? {
        try read { db in
            guard let id = try DatabaseDirectory(db: db).accountID(for: identity) else { return nil }
            return try Self.loadAccounts(db, ids: [id.rawValue]).first
        }
    }

    /// Who `session` is acting as: its own choice, anonymous when it made
    /// none (or a closed terminal of the same name made it).
    public func active(in session: SessionKey) throws(StoreError) -> ActiveAccount {
        try read { db in try Self.active(db, session: session) }
    }

    /// The starred shows of an account.
    public func favourites(of account: AccountID) throws(StoreError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: StoreSchema.favouritesSQL, arguments: [account.rawValue]))
        }
    }

    /// Who `session` last acted as (whether or not it still does), as the
    /// event log tells; nil when nobody ever did there, or that account is gone.
    public func lastActiveAccount(in session: SessionKey) throws(StoreError) -> AccountID? {
        try read { db in
            try Int64.fetchOne(db, sql: StoreSchema.lastActiveSQL, arguments: [session.rawValue]).map { AccountID($0) }
        }
    }

    /// How many events the log holds.
    public func eventCount() throws(StoreError) -> Int {
        try read { db in try EventRecord.fetchCount(db) }
    }

    // MARK: - Shared by reads and writes

    /// Reads only the columns an `Account` holds, by position: decoding
    /// whole records (every date parsed) made the chooser's launch with a
    /// thousand accounts several times slower.
    static func loadAccounts(_ db: Database, ids: [Int64]? = nil) throws -> [Account] {
        let only = ids.map { "IN (\(databaseQuestionMarks(count: $0.count)))" }
        let arguments = ids.map { StatementArguments($0) } ?? StatementArguments()
        var accounts: [(id: Int64, name: String)] = []
        let accountRows = try Row.fetchCursor(db, sql: StoreSchema.accountsSQL(filter: only), arguments: arguments)
        while let row = try accountRows.next() { accounts.append((row[0], row[1])) }
        var identities: [Int64: [LinkedIdentity]] = [:]
        let identityRows = try Row.fetchCursor(db, sql: StoreSchema.identitiesSQL(filter: only), arguments: arguments)
        while let row = try identityRows.next() {
            identities[row[0], default: []].append(StoreSchema.identity(
                provider: row[1], subject: row[2], displayName: row[3], email: row[4], emailVerified: row[5], state: row[6], login: row[7]))
        }
        return StoreSchema.assemble(accounts, identities: identities)
    }

    static func activeID(_ db: Database, session: SessionKey) throws -> AccountID? {
        let row = try Row.fetchOne(db, sql: StoreSchema.activeSQL, arguments: [session.rawValue])
        return StoreSchema.activeID(row.map { ($0[0], $0[1]) }, session: session)
    }

    static func active(_ db: Database, session: SessionKey) throws -> ActiveAccount {
        guard let id = try activeID(db, session: session),
            let account = try loadAccounts(db, ids: [id.rawValue]).first
        else { return .anonymous }
        return .account(account)
    }
}

/// The authenticator's view of the accounts, answered inside a transaction.
struct DatabaseDirectory: AccountDirectory {
    let db: Database

    func accountID(for identity: Identity) throws -> AccountID? {
        try IdentityRecord.fetchOne(db, key: IdentityRecord.key(identity)).map { AccountID($0.accountId) }
    }

    func identities(of account: AccountID) throws -> [Identity] {
        try IdentityRecord.filter(Column("accountId") == account.rawValue).fetchAll(db).map(\.identity)
    }

    func accounts(withVerifiedEmail email: String) throws -> [AccountID] {
        try Int64.fetchAll(
            db, sql: "SELECT DISTINCT accountId FROM identity WHERE emailVerified AND email = ? COLLATE NOCASE",
            arguments: [email]
        ).map { AccountID($0) }
    }
}
