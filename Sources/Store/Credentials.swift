import Foundation
import SwitchboardCore

/// What a credential check changed.
public struct CredentialCheckResult: Hashable, Sendable {
    /// Set when the state changed.
    public let stateChange: IdentityStateChanged?
    /// Sessions signed out because their account has no usable identity left.
    public let signedOut: [UserStatusChanged]
}

extension AppDatabase {
    /// The stored tokens of an identity.
    public func credential(for identity: Identity) throws(StoreError) -> TokenSet? {
        try read { db in try Rows.tokens(of: identity, db: db) }
    }

    /// What is stored of the tokens of `identities` (every identity's, when
    /// nil) that is no secret: when the access token runs out, the scopes.
    /// No token is read. An identity with no tokens stored has no entry;
    /// on a shared store, neither has one whose tokens the role may not
    /// read (a station's, of an account none of its sessions has active).
    public func tokenFacts(of identities: [Identity]? = nil) throws(StoreError) -> [Identity: TokenFacts] {
        try read { db in
            let columns = "SELECT provider, subject, scope, expiresAt FROM credential"
            let decode = { (row: any SQLRow) throws -> (Identity, TokenFacts) in
                let expiresAt: Date? = try row[3]
                return (Identity(provider: ProviderID(try row[0] as String), subject: try row[1]),
                        TokenFacts(expiresAt: expiresAt.map { Moment(secondsSince1970: $0.timeIntervalSince1970) }, scope: try row[2]))
            }
            var facts: [Identity: TokenFacts] = [:]
            guard let identities else {
                for (identity, fact) in try db.map(columns + " ORDER BY provider, subject", [], decode) { facts[identity] = fact }
                return facts
            }
            for identity in identities {
                if let (_, fact) = try db.first(columns + " WHERE provider = $1 AND subject = $2", identity.key, decode) { facts[identity] = fact }
            }
            return facts
        }
    }

    /// Every identity that has stored tokens, with its account.
    public func identitiesWithCredentials() throws(StoreError) -> [(identity: LinkedIdentity, account: AccountID)] {
        try read { db in
            try db.map("""
                SELECT \(StoreSchema.identityColumns), identity.accountId
                FROM identity JOIN credential ON credential.provider = identity.provider AND credential.subject = identity.subject
                ORDER BY identity.provider, identity.subject
                """) { row in (try StoreSchema.identity(row), AccountID(try row[7])) }
        }
    }

    /// Replaces an identity's tokens (after a refresh).
    public func saveCredential(_ tokens: TokenSet, for identity: Identity, at date: Date = Date()) throws(StoreError) {
        try write { db in
            guard try Rows.identity(identity, db: db) != nil else {
                throw StoreError.identityNotFound(identity.description)
            }
            try Rows.saveTokens(tokens, for: identity, at: date, db: db)
        }
    }

    /// Stores `tokens` from a refresh only if the identity's stored refresh
    /// token is still `used`, the one the refresh spent (compare and swap, in
    /// one transaction). Returns false, storing nothing, when another process
    /// stored a newer token set meanwhile, or the identity is gone.
    public func replaceCredential(_ tokens: TokenSet, for identity: Identity, refreshedWith used: String, at date: Date = Date()) throws(StoreError) -> Bool {
        try write { db in
            guard let stored = try Rows.tokens(of: identity, db: db), stored.refreshToken == used,
                try Rows.identity(identity, db: db) != nil
            else { return false }
            try Rows.saveTokens(tokens, for: identity, at: date, db: db)
            return true
        }
    }

    /// Marks `accessToken` of `identity` as run out at `date`, when it is
    /// still the one stored (in one transaction): a server refused it, so
    /// the next one handed out is refreshed first. Returns false, changing
    /// nothing, when another token is stored by now (or none).
    public func expireAccessToken(_ accessToken: String, of identity: Identity, at date: Date = Date()) throws(StoreError) -> Bool {
        try write { db in
            if db.dialect == .postgres {
                // The stored token is sealed: the server's function compares it unsealed.
                return try db.value(
                    "SELECT switchboard_expire_access_token($1::text, $2::text, $3::text, $4::timestamptz)",
                    [identity.provider.rawValue, identity.subject, accessToken, date], as: Bool.self) == true
            }
            return try db.execute(
                "UPDATE credential SET expiresAt = $1, updatedAt = $1 WHERE provider = $2 AND subject = $3 AND accessToken = $4",
                [date, identity.provider.rawValue, identity.subject, accessToken]) > 0
        }
    }

    /// Records what a credential check found. When an identity is
    /// revoked or gone and its account has no authorized identity left, every
    /// session acting as that account is signed out, with the reason.
    public func recordCheck(_ identity: Identity, state: CredentialState, at date: Date = Date()) throws(StoreError) -> CredentialCheckResult {
        try write { db in
            guard let record = try Rows.identity(identity, db: db) else {
                throw StoreError.identityNotFound(identity.description)
            }
            try db.execute("UPDATE identity SET state = $1, checkedAt = $2 WHERE provider = $3 AND subject = $4",
                           [state.rawValue, date, identity.provider.rawValue, identity.subject])
            let previous = CredentialState(rawValue: record.state) ?? .notFound
            guard previous != state else { return CredentialCheckResult(stateChange: nil, signedOut: []) }
            try Self.log("check", session: nil, account: record.account,
                         ["identity": identity.description, "state": state.rawValue, "previous": previous.rawValue], db: db, at: date)
            var signedOut: [UserStatusChanged] = []
            let usable = try db.value(
                "SELECT count(*) FROM identity WHERE accountId = $1 AND state = $2", [record.account.rawValue, CredentialState.authorized.rawValue],
                as: Int.self) ?? 0
            if !state.isAvailable && usable == 0 {
                signedOut = try Self.signOutSessions(of: record.account, reason: .revoked(identity), db: db, at: date)
            }
            return CredentialCheckResult(
                stateChange: IdentityStateChanged(identity: identity, previous: previous, current: state), signedOut: signedOut)
        }
    }
}
