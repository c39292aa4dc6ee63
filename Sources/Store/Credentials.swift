import Foundation
import GRDB
import SwitchboardCore

struct CredentialRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credential"
    var provider: String
    var subject: String
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    var tokenType: String?
    var scope: String?
    var expiresAt: Date?
    var updatedAt: Date

    init(_ identity: Identity, _ tokens: TokenSet, at date: Date) {
        provider = identity.provider.rawValue
        subject = identity.subject
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        idToken = tokens.idToken
        tokenType = tokens.tokenType
        scope = tokens.scope
        expiresAt = tokens.expiresAt.map { Date(timeIntervalSince1970: $0.secondsSince1970) }
        updatedAt = date
    }

    var tokens: TokenSet? {
        accessToken.map {
            TokenSet(accessToken: $0, refreshToken: refreshToken, idToken: idToken, tokenType: tokenType ?? "Bearer", scope: scope,
                expiresAt: expiresAt.map { Moment(secondsSince1970: $0.timeIntervalSince1970) })
        }
    }
}

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
        try read { db in try CredentialRecord.fetchOne(db, key: IdentityRecord.key(identity))?.tokens }
    }

    /// Every identity that has stored tokens, with its account.
    public func identitiesWithCredentials() throws(StoreError) -> [(identity: LinkedIdentity, account: AccountID)] {
        try read { db in
            try IdentityRecord.fetchAll(db, sql: """
                SELECT identity.* FROM identity JOIN credential USING (provider, subject) ORDER BY provider, subject
                """).map { ($0.linked, AccountID($0.accountId)) }
        }
    }

    /// Replaces an identity's tokens (after a refresh).
    public func saveCredential(_ tokens: TokenSet, for identity: Identity, at date: Date = Date()) throws(StoreError) {
        try write { db in
            guard try IdentityRecord.exists(db, key: IdentityRecord.key(identity)) else {
                throw StoreError.identityNotFound(identity.description)
            }
            try CredentialRecord(identity, tokens, at: date).upsert(db)
        }
    }

    /// Stores `tokens` from a refresh only if the identity's stored refresh
    /// token is still `used`, the one the refresh spent (compare and swap, in
    /// one transaction). Returns false, storing nothing, when another process
    /// stored a newer token set meanwhile, or the identity is gone.
    public func replaceCredential(_ tokens: TokenSet, for identity: Identity, refreshedWith used: String, at date: Date = Date()) throws(StoreError) -> Bool {
        try write { db in
            guard let stored = try CredentialRecord.fetchOne(db, key: IdentityRecord.key(identity)), stored.refreshToken == used,
                try IdentityRecord.exists(db, key: IdentityRecord.key(identity))
            else { return false }
            try CredentialRecord(identity, tokens, at: date).upsert(db)
            return true
        }
    }

    /// Marks `accessToken` of `identity` as run out at `date`, when it is
    /// still the one stored (in one transaction): a server refused it, so
    /// the next one handed out is refreshed first. Returns false, changing
    /// nothing, when another token is stored by now (or none).
    public func expireAccessToken(_ accessToken: String, of identity: Identity, at date: Date = Date()) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: "UPDATE credential SET expiresAt = ?, updatedAt = ? WHERE provider = ? AND subject = ? AND accessToken = ?",
                arguments: [date, date, identity.provider.rawValue, identity.subject, accessToken])
            return db.changesCount > 0
        }
    }

    /// Records what a credential check found. When an identity is
    /// revoked or gone and its account has no authorized identity left, every
    /// session acting as that account is signed out, with the reason.
    public func recordCheck(_ identity: Identity, state: CredentialState, at date: Date = Date()) throws(StoreError) -> CredentialCheckResult {
        try write { db in
            guard let record = try IdentityRecord.fetchOne(db, key: IdentityRecord.key(identity)) else {
                throw StoreError.identityNotFound(identity.description)
            }
            try db.execute(sql: "UPDATE identity SET state = ?, checkedAt = ? WHERE provider = ? AND subject = ?",
                           arguments: [state.rawValue, date, identity.provider.rawValue, identity.subject])
            let previous = CredentialState(rawValue: record.state) ?? .notFound
            guard previous != state else { return CredentialCheckResult(stateChange: nil, signedOut: []) }
            try Self.log("check", session: nil, account: AccountID(record.accountId),
                         ["identity": identity.description, "state": state.rawValue, "previous": previous.rawValue], db: db, at: date)
            var signedOut: [UserStatusChanged] = []
            let usable = try IdentityRecord.filter(Column("accountId") == record.accountId && Column("state") == CredentialState.authorized.rawValue).fetchCount(db)
            if !state.isAvailable && usable == 0 {
                signedOut = try Self.signOutSessions(of: AccountID(record.accountId), reason: .revoked(identity), db: db, at: date)
            }
            return CredentialCheckResult(
                stateChange: IdentityStateChanged(identity: identity, previous: previous, current: state), signedOut: signedOut)
        }
    }
}
