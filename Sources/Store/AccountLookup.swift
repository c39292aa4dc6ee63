import Foundation
import SwitchboardCore

// Finding one account among many: each way a person names an account is
// one indexed query, so finding one costs the same with ten accounts or a
// hundred thousand. Plain SQL, as any SQL engine takes it.
extension AppDatabase {
    /// The account a person means by `query`, tried in this order, each
    /// one indexed query (or one scan of names, for a word): an account id;
    /// an identity as `provider:subject`, then as `provider:login`; a name
    /// or email (case-insensitive, exact); then, forgiving, a name one of
    /// whose words starts with `query` (`gra`, `hop` for Grace Hopper) or an
    /// email that does (`grace@`). The first way that finds any decides:
    /// one is the account, several are `ambiguousAccount` naming them.
    public func findAccount(_ query: String) throws(StoreError) -> Account {
        let matches = try read { db -> [Account] in
            for ids in [Self.byID, Self.byIdentity, Self.byLogin, Self.byNameOrEmail, Self.byWordOrEmailPrefix] {
                let found = try ids(db, query)
                if !found.isEmpty { return try Self.loadAccounts(db, ids: found) }
            }
            return []
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .accountNotFound(query)
        default:
            throw .ambiguousAccount(query, candidates: matches.map { account in
                let email = account.identities.lazy.compactMap(\.email).first.map { " <\($0)>" } ?? ""
                return "\(account.id) \(account.name)\(email)"
            })
        }
    }

    private static func byID(_ db: any SQLConnection, _ query: String) throws -> [Int64] {
        guard let id = Int64(query) else { return [] }
        return try db.column("SELECT id FROM account WHERE id = $1", [id], as: Int64.self)
    }

    private static func byIdentity(_ db: any SQLConnection, _ query: String) throws -> [Int64] {
        guard let identity = Identity(parsing: query) else { return [] }
        return try db.column(AccountLookupSQL.byIdentity, identity.key, as: Int64.self)
    }

    private static func byLogin(_ db: any SQLConnection, _ query: String) throws -> [Int64] {
        guard let identity = Identity(parsing: query) else { return [] }
        return try db.column(
            AccountLookupSQL.byLogin, [identity.provider.rawValue, identity.subject.lowercased(), AccountLookupSQL.candidatesNamed], as: Int64.self)
    }

    private static func byNameOrEmail(_ db: any SQLConnection, _ query: String) throws -> [Int64] {
        // Enough to tell one from several, and to name a few of them.
        try db.column(
            AccountLookupSQL.byNameOrEmail,
            [AccountOrder.nameKey(query), AccountOrder.emailKey(query), AccountLookupSQL.candidatesNamed], as: Int64.self)
    }

    private static func byWordOrEmailPrefix(_ db: any SQLConnection, _ query: String) throws -> [Int64] {
        let word = query.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty else { return [] }
        let name = AccountLookupSQL.likeEscaped(AccountOrder.nameKey(word)), email = AccountLookupSQL.likeEscaped(AccountOrder.emailKey(word))
        return try db.column(
            AccountLookupSQL.byWordOrEmailPrefix, ["% " + name + "%", email + "%", AccountLookupSQL.candidatesNamed], as: Int64.self)
    }

    /// The account `session` acted as before its latest change (a switch,
    /// a sign-in, a sign-out), as `cd -` goes back: `.some(nil)` when it was
    /// nobody, nil when the session has no earlier state, or that account
    /// is gone.
    public func previousAccount(in session: SessionKey) throws(StoreError) -> Account?? {
        try read { db -> Account?? in
            let rows = try db.map(AccountLookupSQL.lastChanges, [session.rawValue]) { row -> (kind: String, account: Int64?) in
                (try row[0], try row[1])
            }
            guard rows.count == 2 else { return nil }
            let before = rows[1]
            guard before.kind != "signOut", let id = before.account else { return .some(nil) }
            guard let account = try Self.loadAccounts(db, ids: [id]).first else { return nil }
            return .some(account)
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

    /// The accounts with an identity at a provider (`$1`) whose login,
    /// lower-cased, is `$2`.
    static let byLogin = "SELECT accountId FROM identity WHERE provider = $1 AND lower(login) = $2 LIMIT $3"

    /// The accounts a name's word starts with (`$1`: `% word%`, matched
    /// against the name after a space) or an email starts with (`$2`).
    static let byWordOrEmailPrefix = """
        SELECT id FROM account WHERE (' ' || nameKey) LIKE $1 ESCAPE '\\'
        UNION
        SELECT accountId FROM identity WHERE emailKey LIKE $2 ESCAPE '\\'
        LIMIT $3
        """

    /// A session's two latest changes of who it acts as, newest first.
    static let lastChanges = """
        SELECT kind, accountId FROM event
        WHERE session = $1 AND kind IN ('switch', 'signIn', 'signOut')
        ORDER BY id DESC LIMIT 2
        """

    /// `text` with LIKE's wildcards (and the escape itself) escaped by `\\`.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// How many of several matching accounts an ambiguous name's message names.
    static let candidatesNamed = 10
}
