import SwitchboardCore

// Reading a big roster a page at a time: what a list shows, what a search
// index needs, and every account as a stream, without ever holding them
// all. Plain SQL, as any SQL engine takes it.
extension AppDatabase {
    /// How many accounts the store holds.
    public func accountCount() throws(StoreError) -> Int {
        try read { db in try db.value("SELECT count(*) FROM account", as: Int.self) ?? 0 }
    }

    /// Every account id, in `order`: where each account stands in the list.
    public func accountIDs(in order: AccountOrder) throws(StoreError) -> [AccountID] {
        try read { db in
            var ids: [AccountID] = []
            try db.each("SELECT id FROM account ORDER BY \(AccountPageSQL.orderBy(order))", []) { ids.append(AccountID(try $0[0])) }
            return ids
        }
    }

    /// At most `limit` accounts from position `offset` of the list in `order`, with their identities.
    public func accountPage(in order: AccountOrder, offset: Int, limit: Int) throws(StoreError) -> [Account] {
        try read { db in
            let ids = try db.column(
                "SELECT id FROM account ORDER BY \(AccountPageSQL.orderBy(order)) LIMIT $1 OFFSET $2", [max(0, limit), max(0, offset)],
                as: Int64.self)
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
            try db.each("SELECT id, name FROM account ORDER BY \(AccountPageSQL.orderBy(order))", []) { row in
                page.append((try row[0], try row[1]))
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
            let ids = try db.column("""
                SELECT id FROM account
                WHERE id IN (SELECT accountId FROM identity WHERE provider = $1 AND state = $2) AND id <> $3
                ORDER BY \(AccountPageSQL.orderBy(order)) LIMIT $4
                """, [provider.rawValue, CredentialState.authorized.rawValue, except?.rawValue ?? 0, max(0, limit)], as: Int64.self)
            return try Self.accounts(db, ids: ids)
        }
    }

    /// The accounts with `ids` that exist, in the order of `ids`.
    static func accounts(_ db: any SQLConnection, ids: [Int64]) throws -> [Account] {
        guard !ids.isEmpty else { return [] }
        var found: [Int64: Account] = [:]
        for start in stride(from: 0, to: ids.count, by: AccountPageSQL.pageSize) {
            let chunk = Array(ids[start..<min(ids.count, start + AccountPageSQL.pageSize)])
            for account in try loadAccounts(db, ids: chunk) { found[account.id.rawValue] = account }
        }
        return ids.compactMap { found[$0] }
    }

    /// The identities of `accounts`, by account, oldest link first.
    static func identities(_ db: any SQLConnection, of accounts: [Int64]) throws -> [Int64: [LinkedIdentity]] {
        var identities: [Int64: [LinkedIdentity]] = [:]
        try db.each(StoreSchema.identitiesSQL(filter: "IN (\(placeholders(accounts.count)))"), accounts) { row in
            identities[try row[0], default: []].append(StoreSchema.identity(
                provider: try row[1], subject: try row[2], displayName: try row[3], email: try row[4], emailVerified: try row[5],
                state: try row[6], login: try row[7]))
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
