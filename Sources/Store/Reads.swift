import Foundation
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
            Set(try db.column(StoreSchema.favouritesSQL, [account.rawValue], as: String.self))
        }
    }

    /// Who `session` last acted as (whether or not it still does), as the
    /// event log tells; nil when nobody ever did there, or that account is gone.
    public func lastActiveAccount(in session: SessionKey) throws(StoreError) -> AccountID? {
        try read { db in
            try db.value(StoreSchema.lastActiveSQL, [session.rawValue], as: Int64.self).map { AccountID($0) }
        }
    }

    /// Whether the store answers: one round trip, reading nothing (a shared
    /// store that does not answer within its deadline throws `offline`).
    public func ping() throws(StoreError) {
        _ = try read { db in try db.value("SELECT 1", as: Int.self) }
    }

    /// How many events the log holds.
    public func eventCount() throws(StoreError) -> Int {
        try read { db in try db.value("SELECT count(*) FROM event", as: Int.self) ?? 0 }
    }

    // MARK: - Shared by reads and writes

    /// Reads only the columns an `Account` holds, by position: decoding
    /// whole records (every date parsed) made the chooser's launch with a
    /// thousand accounts several times slower.
    static func loadAccounts(_ db: any SQLConnection, ids: [Int64]? = nil) throws -> [Account] {
        let only = ids.map { "IN (\(placeholders($0.count)))" }
        let arguments: [any SQLBindable] = ids ?? []
        var accounts: [(id: Int64, name: String)] = []
        try db.each(StoreSchema.accountsSQL(filter: only), arguments) { row in accounts.append((try row[0], try row[1])) }
        var identities: [Int64: [LinkedIdentity]] = [:]
        try db.each(StoreSchema.identitiesSQL(filter: only), arguments) { row in
            identities[try row[0], default: []].append(StoreSchema.identity(
                provider: try row[1], subject: try row[2], displayName: try row[3], email: try row[4], emailVerified: try row[5],
                state: try row[6], login: try row[7]))
        }
        return StoreSchema.assemble(accounts, identities: identities)
    }

    static func activeID(_ db: any SQLConnection, session: SessionKey) throws -> AccountID? {
        let row = try db.first(StoreSchema.activeSQL, [session.rawValue]) { row -> (Int64?, String?) in (try row[0], try row[1]) }
        return StoreSchema.activeID(row.map { (accountId: $0.0, lifetime: $0.1) }, session: session, shared: db.isShared)
    }

    /// Who `session` acts as, its account and identities read in one
    /// statement (`StoreSchema.activeAccountSQL`): one round trip to a server.
    static func active(_ db: any SQLConnection, session: SessionKey) throws -> ActiveAccount {
        let stored = try storedSession(db, name: session.rawValue)
        guard let account = stored.account, StoreSchema.activeID(stored.row, session: session, shared: db.isShared) != nil else {
            return .anonymous
        }
        return .account(account)
    }

    /// The session row stored as `name` (nil when there is none) and the
    /// account it names, read in one statement.
    static func storedSession(_ db: any SQLConnection, name: String) throws -> (row: (accountId: Int64?, lifetime: String?)?, account: Account?) {
        var row: (accountId: Int64?, lifetime: String?)?
        var accountName: String?
        var identities: [LinkedIdentity] = []
        try db.each(StoreSchema.activeAccountSQL, [name]) { cells in
            if row == nil { row = (try cells[0], try cells[1]) }
            if accountName == nil { accountName = try cells[2] }
            guard !cells.isNull(3) else { return }
            identities.append(StoreSchema.identity(
                provider: try cells[3], subject: try cells[4], displayName: try cells[5], email: try cells[6], emailVerified: try cells[7],
                state: try cells[8], login: try cells[9]))
        }
        guard let id = row?.accountId, let accountName else { return (row, nil) }
        return (row, Account(id: AccountID(id), name: accountName, identities: identities))
    }
}

/// The authenticator's view of the accounts, answered inside a transaction.
struct DatabaseDirectory: AccountDirectory {
    let db: any SQLConnection

    func accountID(for identity: Identity) throws -> AccountID? {
        try db.value("SELECT accountId FROM identity WHERE provider = $1 AND subject = $2", identity.key, as: Int64.self)
            .map { AccountID($0) }
    }

    func identities(of account: AccountID) throws -> [Identity] {
        try db.map("SELECT provider, subject FROM identity WHERE accountId = $1", [account.rawValue]) { row in
            Identity(provider: ProviderID(try row[0] as String), subject: try row[1])
        }
    }

    func accounts(withVerifiedEmail email: String) throws -> [AccountID] {
        try db.column(
            "SELECT DISTINCT accountId FROM identity WHERE emailVerified AND \(db.dialect.equalsIgnoringCase("email", "$1"))",
            [email], as: Int64.self
        ).map { AccountID($0) }
    }
}

extension Identity {
    /// The identity's key columns (`provider`, `subject`) as `$1`, `$2`.
    var key: [any SQLBindable] { [provider.rawValue, subject] }
}
