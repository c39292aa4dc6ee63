import GRDB
import SwitchboardCore

// Reading a big roster a page at a time: what a list shows, what a search
// index needs, and every account as a stream, without ever holding them
// all. Plain SQL, as any SQL engine takes it.
extension AppDatabase {
    /// How many accounts the store holds.
    public func accountCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0 }
    }

    /// Every account id, in `order`: where each account stands in the list.
    public func accountIDs(in order: AccountOrder) throws(StoreError) -> [AccountID] {
        try read { db in
            var ids: [AccountID] = []
            let rows = try Int64.fetchCursor(db, sql: "SELECT id FROM account ORDER BY \(AccountPageSQL.orderBy(order))")
            while let id = try rows.next() { ids.append(AccountID(id)) }
            return ids
        }
    }

    /// At most `limit` accounts from position `offset` of the list in `order`, with their identities.
    public func accountPage(in order: AccountOrder, offset: Int, limit: Int) throws(StoreError) -> [Account] {
        try read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM account ORDER BY \(AccountPageSQL.orderBy(order)) LIMIT ? OFFSET ?",
                arguments: [max(0, limit), max(0, offset)])
            return try Self.accounts(db, ids: ids)
        }
    }

    /// The accounts with these ids that exist, with their identities, in the order given.
    public func accounts(ids: [AccountID]) throws(StoreError) -> [Account] {
        try read { db in try Self.accounts(db, ids: ids.map(\.rawValue)) }
    }

    /// Calls `body` with every account and its identities, in `order`, as
    /// they are read, in one read (one moment of the store): only a chunk
    /// of accounts is held at a time, whatever the roster's size.
    public func forEachAccount(in order: AccountOrder = .recentUse, _ body: (Account) -> Void) throws(StoreError) {
        try read { db in
            var page: [(id: Int64, name: String)] = []
            page.reserveCapacity(AccountPageSQL.streamChunk)
            func flush() throws {
                guard !page.isEmpty else { return }
                let identities = try Self.identities(db, of: page.map(\.id))
                for account in StoreSchema.assemble(page, identities: identities) { body(account) }
                page.removeAll(keepingCapacity: true)
            }
            let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM account ORDER BY \(AccountPageSQL.orderBy(order))")
            while let row = try rows.next() {
                page.append((row[0], row[1]))
                if page.count == AccountPageSQL.streamChunk { try flush() }
            }
            try flush()
        }
    }

    /// Accounts, but `except`, with an available identity at `provider`,
    /// in `order`, at most `limit`: whom a sign-in there may continue as.
    public func accounts(
        signedInAt provider: ProviderID, except: AccountID?, in order: AccountOrder, limit: Int
    ) throws(StoreError) -> [Account] {
        try read { db in
            let ids = try Int64.fetchAll(db, sql: """
                SELECT id FROM account
                WHERE id IN (SELECT accountId FROM identity WHERE provider = ? AND state = ?) AND id <> ?
                ORDER BY \(AccountPageSQL.orderBy(order)) LIMIT ?
                """, arguments: [provider.rawValue, CredentialState.authorized.rawValue, except?.rawValue ?? 0, max(0, limit)])
            return try Self.accounts(db, ids: ids)
        }
    }

    /// The accounts with `ids` that exist, in the order of `ids`.
    static func accounts(_ db: Database, ids: [Int64]) throws -> [Account] {
        guard !ids.isEmpty else { return [] }
        var found: [Int64: Account] = [:]
        for start in stride(from: 0, to: ids.count, by: AccountPageSQL.pageSize) {
            let chunk = Array(ids[start..<min(ids.count, start + AccountPageSQL.pageSize)])
            for account in try loadAccounts(db, ids: chunk) { found[account.id.rawValue] = account }
        }
        return ids.compactMap { found[$0] }
    }

    /// The identities of `accounts`, by account, oldest link first.
    static func identities(_ db: Database, of accounts: [Int64]) throws -> [Int64: [LinkedIdentity]] {
        var identities: [Int64: [LinkedIdentity]] = [:]
        let rows = try Row.fetchCursor(
            db, sql: StoreSchema.identitiesSQL(filter: "IN (\(databaseQuestionMarks(count: accounts.count)))"),
            arguments: StatementArguments(accounts))
        while let row = try rows.next() {
            identities[row[0], default: []].append(StoreSchema.identity(
                provider: row[1], subject: row[2], displayName: row[3], email: row[4], emailVerified: row[5], state: row[6], login: row[7]))
        }
        return identities
    }
}

/// The pages' SQL.
enum AccountPageSQL {
    /// Accounts read at a time (and the most ids in one `IN` list).
    static let pageSize = 256
    /// Accounts a stream reads at a time: enough that their identities,
    /// looked up in order of their accounts' ids, share the table's pages
    /// (identities are mostly stored in that order), few enough to hold.
    static let streamChunk = 4096

    /// The `ORDER BY` terms of `order`, each with an index behind it
    /// (`account_listed`, `account_by_name`, which hold the name too).
    static func orderBy(_ order: AccountOrder) -> String {
        switch order {
        case .recentUse: "lastUsedAt DESC NULLS LAST, useCount DESC, id"
        case .name: "nameKey, id"
        }
    }
}
