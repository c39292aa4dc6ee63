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
                let owner = try db.value(AccountLookupSQL.byIdentity, identity.key, as: Int64.self),
                let account = try Self.loadAccounts(db, ids: [owner]).first
            {
                return [account]
            }
            // Enough to tell one from several, and to name a few of them.
            let ids = try db.column(
                AccountLookupSQL.byNameOrEmail,
                [AccountOrder.nameKey(query), AccountOrder.emailKey(query), AccountLookupSQL.candidatesNamed], as: Int64.self)
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
            try db.map("""
                SELECT \(StoreSchema.identityColumns)
                FROM identity JOIN credential ON credential.provider = identity.provider AND credential.subject = identity.subject
                WHERE identity.accountId = $1 ORDER BY identity.provider, identity.subject
                """, [account.rawValue]) { try StoreSchema.identity($0) }
        }
    }

    /// An identity as stored, or nil when nobody has it.
    public func linkedIdentity(_ identity: Identity) throws(StoreError) -> LinkedIdentity? {
        try read { db in
            try db.first("SELECT \(StoreSchema.identityColumns) FROM identity WHERE provider = $1 AND subject = $2", identity.key) {
                try StoreSchema.identity($0)
            }
        }
    }
}

/// The lookups' SQL.
enum AccountLookupSQL {
    /// The owner of an identity: its primary key.
    static let byIdentity = "SELECT accountId FROM identity WHERE provider = $1 AND subject = $2"

    /// The accounts whose name (`account_by_name`) or an identity's email
    /// (`identity_by_email`) folds to the keys given, at most as many as
    /// the last argument.
    static let byNameOrEmail = """
        SELECT id FROM account WHERE nameKey = $1
        UNION
        SELECT accountId FROM identity WHERE emailKey = $2
        LIMIT $3
        """

    /// How many of several matching accounts an ambiguous name's message names.
    static let candidatesNamed = 10
}
