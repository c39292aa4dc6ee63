import Foundation
import SwitchboardCore

// The rows the rules write, as SQL both engines take. Column names match the
// migrations (PostgreSQL folds the unquoted names to lower case, the same in
// every statement).

enum Rows {
    /// Inserts an account; returns its id.
    static func insertAccount(name: String, at date: Date, db: any SQLConnection) throws -> AccountID {
        guard let id = try db.value(
            "INSERT INTO account (name, nameKey, createdAt, useCount) VALUES ($1, $2, $3, 0) RETURNING id",
            [name, AccountOrder.nameKey(name), date], as: Int64.self)
        else { throw SQLDecodingError(description: "no id came back for a new account") }
        return AccountID(id)
    }

    static func accountExists(_ id: AccountID, db: any SQLConnection) throws -> Bool {
        try db.exists("SELECT 1 FROM account WHERE id = $1", [id.rawValue])
    }

    static func insertIdentity(_ linked: LinkedIdentity, account: AccountID, at date: Date, db: any SQLConnection) throws {
        try db.execute(
            """
            INSERT INTO identity (provider, subject, accountId, displayName, email, emailKey, emailVerified, state, linkedAt, checkedAt, login)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)
            """,
            [linked.identity.provider.rawValue, linked.identity.subject, account.rawValue, linked.displayName, linked.email,
             linked.email.map(AccountOrder.emailKey), linked.emailVerified, linked.state.rawValue, date, linked.login])
    }

    /// The account and state of an identity, or nil when nobody has it.
    static func identity(_ identity: Identity, db: any SQLConnection) throws -> (account: AccountID, state: String)? {
        try db.first("SELECT accountId, state FROM identity WHERE provider = $1 AND subject = $2", identity.key) { row in
            (AccountID(try row[0]), try row[1])
        }
    }

    /// Stores an identity's tokens, replacing any it had.
    /// On a shared store through the owner's `switchboard_save_tokens`: a
    /// station stores the tokens of a sign-in it may not read back (until a
    /// session of its own has the account active).
    static func saveTokens(_ tokens: TokenSet, for identity: Identity, at date: Date, db: any SQLConnection) throws {
        let values: [any SQLBindable] = [
            identity.provider.rawValue, identity.subject, tokens.accessToken, tokens.refreshToken, tokens.idToken, tokens.tokenType,
            tokens.scope, tokens.expiresAt.map { Date(timeIntervalSince1970: $0.secondsSince1970) }, date,
        ]
        if db.dialect == .postgres {
            _ = try db.execute(
                "SELECT switchboard_save_tokens($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::timestamptz, $9::timestamptz)",
                values)
            return
        }
        try db.execute(
            """
            INSERT INTO credential (provider, subject, accessToken, refreshToken, idToken, tokenType, scope, expiresAt, updatedAt)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (provider, subject) DO UPDATE SET
              accessToken = excluded.accessToken, refreshToken = excluded.refreshToken, idToken = excluded.idToken,
              tokenType = excluded.tokenType, scope = excluded.scope, expiresAt = excluded.expiresAt, updatedAt = excluded.updatedAt
            """,
            values)
    }

    /// An identity's stored tokens; nil when none are.
    /// On a shared store through the owner's `switchboard_tokens`, which
    /// unseals them, for a station only while one of its own sessions has
    /// the account active (else none, as if none were stored).
    static func tokens(of identity: Identity, db: any SQLConnection) throws -> TokenSet? {
        let sql = db.dialect == .postgres
            ? "SELECT token_access, token_refresh, token_id, token_type, token_scope, token_expires FROM switchboard_tokens($1::text, $2::text)"
            : "SELECT accessToken, refreshToken, idToken, tokenType, scope, expiresAt FROM credential WHERE provider = $1 AND subject = $2"
        return try db.first(
            sql,
            identity.key
        ) { row -> TokenSet? in
            guard let access: String = try row[0] else { return nil }
            let expiresAt: Date? = try row[5]
            return TokenSet(
                accessToken: access, refreshToken: try row[1], idToken: try row[2], tokenType: try row[3] ?? "Bearer", scope: try row[4],
                expiresAt: expiresAt.map { Moment(secondsSince1970: $0.timeIntervalSince1970) })
        } ?? nil
    }

    /// Appends to the event log; `detail` is a JSON object of non-secret strings.
    /// The account's name goes with it: `name` when given (of an account
    /// being removed), else the account's own.
    static func insertEvent(
        kind: String, session: String?, account: AccountID?, name: String? = nil, detail: String, at date: Date, db: any SQLConnection
    ) throws {
        guard let id = try db.value(
            """
            INSERT INTO event (at, session, kind, accountId, detail, accountName, accountNameKey)
            SELECT $1, $2, $3, $4, $5, coalesce($6, account.name), coalesce($7, account.nameKey)
            FROM (SELECT 1) AS one LEFT JOIN account ON account.id = $4
            RETURNING id
            """,
            [date, session, kind, account?.rawValue, detail, name, name.map(AccountOrder.nameKey)], as: Int64.self)
        else { throw SQLDecodingError(description: "no id came back for a new event") }
        db.appended(ChangePayload.Event(id: id, kind: kind, session: session, account: account?.rawValue, detail: detail))
    }
}
