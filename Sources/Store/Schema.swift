import SwitchboardCore

/// The schema's identity and the queries that list accounts, in one place:
/// the migrations create what these read.
enum StoreSchema {
    /// `PRAGMA application_id` of a Switchboard SQLite database ("SWBD").
    static let applicationID: Int32 = 0x5357_4244

    /// The migrations' names, oldest first. Never edit a shipped one; add another.
    static let migrations = [
        "v1: accounts, identities, credentials, sessions, favourites, provider data, events",
        "v2: accounts indexed in their listed order",
        "v3: identities of an issuer named by URL keyed by the whole issuer, not its host",
        "v4: profile and operator PINs with their failed attempts",
        "v5: a terminal's session bound to the terminal's lifetime",
        "v6: accounts found by name and email and listed by name through indexes; the oldest events may be pruned",
        "v7: an identity's login name at its provider",
        "v8: stations reporting themselves with a heartbeat; events found by session",
        "v9: identities indexed by account with what a listing shows",
        "v10: only the store's owner deletes events or records migrations",
        "v11: each station its own role, acting only on its own sessions; tokens only where active; events stamped by the server",
        "v12: PIN hashes kept on the server: tried, counted and set only by its functions",
        "v13: events keep the name of the account they are about",
        "v14: tokens sealed with a key only the owner's functions read",
        "v15: wrong PINs counted where no rollback undoes them",
        "v16: a station's role makes active, moves, removes and stores tokens only for what it proved or has active",
        "v17: a station's row says which machine runs it",
        "v18: a station's role leaves alone what another station has active",
        "v19: a station's row says how far its clock is from the fleet's",
    ]

    /// v13, on either engine: each event keeps the name of the account it
    /// is about as it was then, and its folded key (`AccountOrder.nameKey`),
    /// so history reads (and `log --account NAME` finds) a person after the
    /// account is gone. Events logged before are left as they are (no event
    /// changes): while their account exists the log reads its name there.
    static let eventNamesSQL = """
        ALTER TABLE event ADD COLUMN accountName text;
        ALTER TABLE event ADD COLUMN accountNameKey text;
        """

    /// v17, on either engine: which machine (and boot) runs a station's
    /// terminal, so that a second machine of the same name is told apart.
    static let stationInstanceSQL = "ALTER TABLE station ADD COLUMN instance text"

    /// v19, on either engine: how many seconds the station's clock is ahead
    /// of the fleet's (behind: negative), as its last heartbeat measured.
    static let stationClockSQL = "ALTER TABLE station ADD COLUMN clockSkew real"

    /// The index by account that holds every column of an identity a
    /// listing shows, in link order (`AccountPageSQL.stream`), on either engine.
    static let identityByAccountSQL = """
        CREATE INDEX identity_by_account
        ON identity (accountId, linkedAt, provider, subject, displayName, email, emailVerified, state, login)
        """

    /// Accounts (`id`, `name`), most recently then most often used first;
    /// `filter` is a condition on `id` such as `IN (?)`, or nil for all.
    static func accountsSQL(filter: String?) -> String {
        """
        SELECT id, name FROM account \(filter.map { "WHERE id \($0)" } ?? "")
        ORDER BY lastUsedAt DESC NULLS LAST, useCount DESC, id
        """
    }

    /// Identities (`accountId`, `provider`, `subject`, `displayName`,
    /// `email`, `emailVerified`, `state`, `login`), oldest link first; `filter` is a
    /// condition on `accountId`, or nil for all.
    static func identitiesSQL(filter: String?) -> String {
        """
        SELECT accountId, provider, subject, displayName, email, emailVerified, state, login
        FROM identity \(filter.map { "WHERE accountId \($0)" } ?? "")
        ORDER BY linkedAt, provider, subject
        """
    }

    /// The session row that decides who is active, with the lifetime of the terminal that chose.
    static let activeSQL = "SELECT accountId, lifetime FROM session WHERE key = $1"

    /// `activeSQL`'s row with the account's name and identities (in
    /// `identitiesSQL`'s order), a row per identity: who is active, in one statement.
    static let activeAccountSQL = """
        SELECT session.accountId, session.lifetime, account.name,
          identity.provider, identity.subject, identity.displayName, identity.email, identity.emailVerified, identity.state,
          identity.login
        FROM session
          LEFT JOIN account ON account.id = session.accountId
          LEFT JOIN identity ON identity.accountId = account.id
        WHERE session.key = $1
        ORDER BY identity.linkedAt, identity.provider, identity.subject
        """

    /// Stores who a session acts as, bound to the lifetime of the terminal
    /// that chose (NULL for a named session).
    static let chooseSQL = """
        INSERT INTO session (key, accountId, updatedAt, lifetime) VALUES ($1, $2, $3, $4)
        ON CONFLICT (key) DO UPDATE SET accountId = excluded.accountId, updatedAt = excluded.updatedAt, lifetime = excluded.lifetime
        """

    /// The account a session last acted as, from the event log: the newest
    /// sign-in, switch, sign-out (which names who was signed out) or merge
    /// of that session, if that account still exists. Read newest first, so
    /// it stops at the first such event.
    static let lastActiveSQL = """
        SELECT account.id FROM (
            SELECT accountId FROM event
            WHERE session = $1 AND kind IN ('signIn', 'switch', 'signOut', 'merge') AND accountId IS NOT NULL
            ORDER BY id DESC LIMIT 1
        ) AS last JOIN account ON account.id = last.accountId
        """

    /// The starred shows of one account.
    static let favouritesSQL = "SELECT showId FROM favourite WHERE accountId = $1"

    /// The columns `identity(_ row:)` reads, in its order.
    static let identityColumns = """
        identity.provider, identity.subject, identity.displayName, identity.email, identity.emailVerified, identity.state, identity.login
        """

    /// An identity read as `identityColumns` (from the row's first column).
    static func identity(_ row: any SQLRow) throws -> LinkedIdentity {
        identity(
            provider: try row[0], subject: try row[1], displayName: try row[2], email: try row[3], emailVerified: try row[4], state: try row[5],
            login: try row[6])
    }

    /// One identity row of `identitiesSQL`, as the chooser sees it.
    static func identity(
        provider: String, subject: String, displayName: String?, email: String?, emailVerified: Bool, state: String, login: String?
    ) -> LinkedIdentity {
        LinkedIdentity(
            identity: Identity(provider: ProviderID(provider), subject: subject), displayName: displayName, email: email,
            emailVerified: emailVerified, state: CredentialState(rawValue: state) ?? .notFound, login: login)
    }

    /// Accounts in their order, each with its identities.
    static func assemble(_ accounts: [(id: Int64, name: String)], identities: [Int64: [LinkedIdentity]]) -> [Account] {
        var identities = identities
        return accounts.map { Account(id: AccountID($0.id), name: $0.name, identities: identities.removeValue(forKey: $0.id) ?? []) }
    }

    /// Who is active, from the row of `activeSQL`: the session's own choice,
    /// made under the same lifetime. A terminal does not act as what another
    /// terminal of the same name chose (one that has closed), nor as a
    /// session named from elsewhere; a named session does not act as a
    /// terminal's. No session acts as the machine default's choice but the
    /// machine default itself. On a shared store a named session reads a
    /// station's terminal session too (`STATION/TERMINAL`, as an operator
    /// names it from anywhere).
    static func activeID(_ row: (accountId: Int64?, lifetime: String?)?, session: SessionKey, shared: Bool = false) -> AccountID? {
        guard let row, row.lifetime == session.lifetime || shared && session.lifetime == nil else { return nil }
        return row.accountId.map { AccountID($0) }
    }
}
