import GRDB
import SwitchboardCore

// Finding one account among many: each way a person names an account is
// one indexed query, so finding one costs the same with ten accounts or a
// hundred thousand. Plain SQL, as any SQL engine takes it.
extension AppDatabase {
    /// The account a person means by `query`: an account id, an identity as
    /// `provider:subject`, or a name or email (case-insensitive, exact).
    public func findAccount(_ query: String) throws(StoreError) -> Account {
        let matches = try read { db -> [Account] in
            if let id = Int64(query), let account = try Self.loadAccounts(db, ids: [id]).first { return [account] }
            if let identity = Identity(parsing: query),
                let owner = try Int64.fetchOne(db, sql: AccountLookupSQL.byIdentity, arguments: [identity.provider.rawValue, identity.subject]),
                let account = try Self.loadAccounts(db, ids: [owner]).first
            {
                return [account]
            }
            // Enough to tell one from several, and to name a few of them.
            let ids = try Int64.fetchAll(
                db, sql: AccountLookupSQL.byNameOrEmail,
                arguments: [AccountOrder.nameKey(query), AccountOrder.emailKey(query), AccountLookupSQL.candidatesNamed])
            return ids.isEmpty ? [] : try Self.loadAccounts(db, ids: ids)
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .accountNotFound(query)
        default: throw .ambiguousAccount(query, candidates: matches.map { "\($0.id) \($0.name)" })
        }
    }
}

extension AppDatabase {
    /// The identities of `account` that have stored tokens.
    public func identitiesWithCredentials(of account: AccountID) throws(StoreError) -> [LinkedIdentity] {
        try read { db in
            try IdentityRecord.fetchAll(db, sql: """
                SELECT identity.* FROM identity JOIN credential USING (provider, subject)
                WHERE identity.accountId = ? ORDER BY provider, subject
                """, arguments: [account.rawValue]).map(\.linked)
        }
    }

    /// An identity as stored, or nil when nobody has it.
    public func linkedIdentity(_ identity: Identity) throws(StoreError) -> LinkedIdentity? {
        try read { db in try IdentityRecord.fetchOne(db, key: IdentityRecord.key(identity))?.linked }
    }
}

/// The lookups' SQL.
enum AccountLookupSQL {
    /// The owner of an identity: its primary key.
    static let byIdentity = "SELECT accountId FROM identity WHERE provider = ? AND subject = ?"

    /// The accounts whose name (`account_by_name`) or an identity's email
    /// (`identity_by_email`) folds to the keys given, at most as many as
    /// the last argument.
    static let byNameOrEmail = """
        SELECT id FROM account WHERE nameKey = ?
        UNION
        SELECT accountId FROM identity WHERE emailKey = ?
        LIMIT ?
        """

    /// How many of several matching accounts an ambiguous name's message names.
    static let candidatesNamed = 10
}
