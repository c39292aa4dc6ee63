import Foundation
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
    /// they are read: one statement (one moment of the store) whose rows
    /// come in order from the listing's indexes, one account's after
    /// another, so only the account being read is held, whatever the
    /// roster's size.
    public func forEachAccount(in order: AccountOrder = .recentUse, _ body: (Account) -> Void) throws(StoreError) {
        try read { db in
            var current: Account?
            try db.each(AccountPageSQL.stream(order), []) { row in
                let id = AccountID(try row.integer(0))
                if current?.id != id {
                    if let current { body(current) }
                    current = Account(id: id, name: try row.text(1))
                }
                guard !row.isNull(2) else { return }
                // Read by the row's own methods, not its generic subscript: a hundred thousand rows notice.
                current?.identities.append(StoreSchema.identity(
                    provider: try row.text(2), subject: try row.text(3), displayName: try row.optionalText(4),
                    email: try row.optionalText(5), emailVerified: try row.bool(6), state: try row.text(7), login: try row.optionalText(8)))
            }
            if let current { body(current) }
        }
    }

    /// Lets go of what the engine keeps cached after a big read, such as a
    /// stream of every account (SQLite's pages: idle reading connections
    /// close, the others free what they can, as they are done).
    public func releaseMemory() { engine.releaseMemory() }

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
}

/// The pages' SQL.
enum AccountPageSQL {
    /// Accounts read at a time (and the most ids in one `IN` list).
    static let pageSize = 256
    /// Every account with its identities, in `order`, oldest link first
    /// (as `StoreSchema.identitiesSQL`): the accounts from their listing
    /// index, each one's identities from `identity_by_account`, which holds
    /// every column read in that order, so no table is read and nothing
    /// is sorted.
    static func stream(_ order: AccountOrder) -> String {
        let accountOrder = orderBy(order).split(separator: ",").map { "account." + $0.trimmingCharacters(in: .whitespaces) }
        return """
            SELECT account.id, account.name, identity.provider, identity.subject, identity.displayName, identity.email,
                   identity.emailVerified, identity.state, identity.login
            FROM account LEFT JOIN identity ON identity.accountId = account.id
            ORDER BY \(accountOrder.joined(separator: ", ")), identity.linkedAt, identity.provider, identity.subject
            """
    }

    /// The `ORDER BY` terms of `order`, each with an index behind it
    /// (`account_listed`, `account_by_name`, which hold the name too).
    static func orderBy(_ order: AccountOrder) -> String {
        switch order {
        case .recentUse: "lastUsedAt DESC NULLS LAST, useCount DESC, id"
        case .name: "nameKey, id"
        }
    }
}
