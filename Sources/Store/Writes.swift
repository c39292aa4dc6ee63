import Foundation
import GRDB
import SwitchboardCore

/// How a sign-in was applied to the store.
public enum SignInResult: Hashable, Sendable {
    /// The session now acts as `account` (new when `isNew`); or, for a link,
    /// the identity was attached to it.
    case completed(account: Account, isNew: Bool, linked: Bool, change: UserStatusChanged, possibleMatches: [AccountID])
    /// The identity belongs to another account: ask, then call `resolve`.
    case conflict(AuthConflict, possibleMatches: [AccountID])
    /// The identity's account has a PIN (`refusal` says whether one is
    /// needed or it is locked out): its tokens are stored, but only a switch
    /// with the PIN makes it active.
    case needsPIN(account: AccountID, refusal: StoreError)
    /// Nothing was done.
    case refused(AuthRefusal)
}

/// What a disconnect did.
public struct DisconnectResult: Hashable, Sendable {
    /// The identity forgotten.
    public let identity: Identity
    /// The account it belonged to (gone when `accountRemoved`).
    public let owner: AccountID
    /// Who the session acts as now.
    public let change: UserStatusChanged
    /// The identity was its account's last, so the account is gone too.
    public let accountRemoved: Bool
    /// Other sessions that acted as the removed account and are anonymous now.
    public let signedOut: [UserStatusChanged]
    /// The tokens that were stored for the identity, to revoke at its provider.
    public let forgotten: TokenSet?
}

// The named writes. Each is one transaction; those that change who is
// active or which identities exist append to the event log and return the
// fact for the bus.
extension AppDatabase {
    /// Applies a freshly verified identity by the authenticator's decision,
    /// storing its tokens in the same transaction. On a conflict nothing is
    /// written; the tokens go in with `resolve`.
    ///
    /// A sign-in that lands on an account with a PIN, other than the one
    /// active, stores the tokens and ends as `needsPIN`: a switch with the
    /// PIN makes it active.
    public func signIn(_ identity: LinkedIdentity, mode: AuthMode, session: SessionKey, tokens: TokenSet? = nil, at date: Date = Date()) throws(StoreError) -> SignInResult {
        let outcome: Result<SignInResult, StoreError> = try write { db in
            let previous = try Self.active(db, session: session)
            let resolution = try Authenticator().decide(
                identity: identity, mode: mode, active: previous.id, directory: DatabaseDirectory(db: db))
            let matches = resolution.possibleMatches
            switch resolution.decision {
            case .refused(let refusal):
                return .success(.refused(refusal))
            case .conflict(let conflict):
                return .success(.conflict(conflict, possibleMatches: matches))
            case .useExisting(let id):
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                // Approving a code is no PIN: an account with one is made active by a switch
                // that gives it (the tokens just stored stay for then).
                if id != previous.id, let refusal = try Self.admit(id, proof: nil, db: db, at: date, rounds: pinRounds) {
                    return .success(.needsPIN(account: id, refusal: refusal))
                }
                let change = try Self.makeActive(id, session: session, previous: previous, reason: .signedIn(isNew: false), db: db, at: date)
                try Self.log("signIn", session: session, account: id, ["identity": identity.identity.description], db: db, at: date)
                return .success(.completed(account: change.current.account!, isNew: false, linked: false, change: change, possibleMatches: matches))
            case .createAccount:
                var account = AccountRecord(name: Self.name(for: identity), createdAt: date, useCount: 0)
                try account.insert(db)
                let id = AccountID(account.id!)
                try IdentityRecord(identity, account: id, at: date).insert(db)
                if let tokens { try CredentialRecord(identity.identity, tokens, at: date).insert(db) }
                let change = try Self.makeActive(id, session: session, previous: previous, reason: .signedIn(isNew: true), db: db, at: date)
                try Self.log("signIn", session: session, account: id, ["identity": identity.identity.description, "isNew": "true"], db: db, at: date)
                return .success(.completed(account: change.current.account!, isNew: true, linked: false, change: change, possibleMatches: matches))
            case .link(let id):
                try IdentityRecord(identity, account: id, at: date).insert(db)
                if let tokens { try CredentialRecord(identity.identity, tokens, at: date).insert(db) }
                try Self.log("link", session: session, account: id, ["identity": identity.identity.description], db: db, at: date)
                let current = try Self.active(db, session: session)
                let change = UserStatusChanged(session: session, previous: previous, current: current, reason: .linked(identity.identity))
                return .success(.completed(account: current.account!, isNew: false, linked: true, change: change, possibleMatches: matches))
            }
        }
        return try outcome.get()
    }

    /// Carries out a person's answer to a conflict. The conflict is checked
    /// again inside the transaction; if the accounts changed meanwhile,
    /// nothing happens and `conflictChanged` is thrown.
    public func resolve(
        _ conflict: AuthConflict, choosing choice: ConflictChoice, identity: LinkedIdentity,
        session: SessionKey, tokens: TokenSet? = nil, at date: Date = Date()
    ) throws(StoreError) -> UserStatusChanged? {
        let outcome: Result<UserStatusChanged?, StoreError> = try write { db in
            let previous = try Self.active(db, session: session)
            let fresh = try Authenticator().decide(
                identity: identity, mode: .link, active: previous.id, directory: DatabaseDirectory(db: db))
            guard case .conflict(let current) = fresh.decision, current == conflict else {
                throw StoreError.conflictChanged(conflict.identity)
            }
            let action: ConflictAction
            do { action = try Authenticator().resolve(conflict, choosing: choice) } catch AuthError.mergeRefused(let providers) {
                throw StoreError.mergeRefused(providers)
            }
            switch action {
            case .stay:
                return .success(nil)
            case .switchTo(let owner):
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                // A switch, as any other: an account with a PIN takes it (`switchAccount(to:session:pin:)`);
                // the tokens just signed in for are kept for when it is given.
                if let refusal = try Self.admit(owner, proof: nil, db: db, at: date, rounds: pinRounds) { return .failure(refusal) }
                let change = try Self.makeActive(owner, session: session, previous: previous, reason: .switched, db: db, at: date)
                try Self.log("switch", session: session, account: owner, ["conflict": conflict.identity.description], db: db, at: date)
                return .success(change)
            case .merge(let source, let target):
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                return .success(try Self.merge(source, into: target, session: session, previous: previous, db: db, at: date))
            }
        }
        return try outcome.get()
    }

    /// Makes `account` active in `session`, or nobody when nil.
    ///
    /// An account with a PIN is switched to only with its PIN or the
    /// operator PIN (`admit`): the check and the counting of its outcome are
    /// in the switch's transaction. A wrong PIN's count is committed, then
    /// `wrongPIN` is thrown; none gives `pinRequired`, too many wrong ones
    /// `pinLockedOut`.
    public func switchAccount(
        to account: AccountID?, session: SessionKey, pin: PINProof? = nil, at date: Date = Date()
    ) throws(StoreError) -> UserStatusChanged {
        let outcome: Result<UserStatusChanged, StoreError> = try write { db in
            let previous = try Self.active(db, session: session)
            guard let account else {
                return .success(try Self.signOut(session: session, previous: previous, db: db, at: date))
            }
            guard try AccountRecord.exists(db, key: account.rawValue) else {
                throw StoreError.accountNotFound(account.description)
            }
            if let refusal = try Self.admit(account, proof: pin, db: db, at: date, rounds: pinRounds) { return .failure(refusal) }
            let change = try Self.makeActive(account, session: session, previous: previous, reason: .switched, db: db, at: date)
            try Self.log("switch", session: session, account: account, [:], db: db, at: date)
            return .success(change)
        }
        return try outcome.get()
    }

    /// Makes `session` anonymous. Identities stay available.
    public func signOut(session: SessionKey, at date: Date = Date()) throws(StoreError) -> UserStatusChanged {
        try write { db in
            try Self.signOut(session: session, previous: try Self.active(db, session: session), db: db, at: date)
        }
    }

    /// Moves `source`'s identities, favourites and sessions into `target`
    /// and deletes `source`. Refused when both hold an identity at one provider.
    public func merge(_ source: AccountID, into target: AccountID, session: SessionKey, at date: Date = Date()) throws(StoreError) -> UserStatusChanged {
        try write { db in
            let previous = try Self.active(db, session: session)
            return try Self.merge(source, into: target, session: session, previous: previous, db: db, at: date)
        }
    }

    /// Forgets an identity: its credentials and provider data go with it. An
    /// account left with no identity is deleted with its data; sessions that
    /// acted as it become anonymous. An account with a PIN gives up an
    /// identity only with its PIN or the operator PIN (`admit`), whoever is
    /// active. The tokens forgotten come back in the result, for revoking
    /// them at the provider.
    public func disconnect(_ identity: Identity, session: SessionKey, pin: PINProof? = nil, at date: Date = Date()) throws(StoreError) -> DisconnectResult {
        let outcome: Result<DisconnectResult, StoreError> = try write { db in
            let previous = try Self.active(db, session: session)
            guard let record = try IdentityRecord.fetchOne(db, key: IdentityRecord.key(identity)) else {
                throw StoreError.identityNotFound(identity.description)
            }
            if let refusal = try Self.admit(AccountID(record.accountId), proof: pin, db: db, at: date, rounds: pinRounds) { return .failure(refusal) }
            let forgotten = try CredentialRecord.fetchOne(db, key: IdentityRecord.key(identity))?.tokens
            try record.delete(db)
            let remaining = try IdentityRecord.filter(Column("accountId") == record.accountId).fetchCount(db)
            var signedOut: [UserStatusChanged] = []
            if remaining == 0 {
                // Every other session acting as the account is told, not silently emptied.
                signedOut = try Self.signOutSessions(
                    of: AccountID(record.accountId), except: session, reason: .disconnected(identity), db: db, at: date)
                _ = try AccountRecord.deleteOne(db, key: record.accountId)
            }
            try Self.log("disconnect", session: session, account: AccountID(record.accountId),
                         ["identity": identity.description, "accountRemoved": String(remaining == 0)], db: db, at: date)
            let change = UserStatusChanged(
                session: session, previous: previous, current: try Self.active(db, session: session),
                reason: .disconnected(identity))
            return .success(DisconnectResult(
                identity: identity, owner: AccountID(record.accountId), change: change, accountRemoved: remaining == 0, signedOut: signedOut, forgotten: forgotten))
        }
        return try outcome.get()
    }

    /// Lets `session` use `account`'s tokens: always where it is the active
    /// account; elsewhere an account with a PIN takes its PIN or the
    /// operator PIN (`admit`), counted as any other try.
    public func admitTokenUse(of account: AccountID, session: SessionKey, pin: PINProof? = nil, at date: Date = Date()) throws(StoreError) {
        let outcome: Result<Void, StoreError> = try write { db in
            guard try AccountRecord.exists(db, key: account.rawValue) else { throw StoreError.accountNotFound(account.description) }
            if try Self.activeID(db, session: session) == account { return .success(()) }
            if let refusal = try Self.admit(account, proof: pin, db: db, at: date, rounds: pinRounds) { return .failure(refusal) }
            return .success(())
        }
        try outcome.get()
    }

    /// Stars or unstars a show for an account.
    public func setFavourite(_ show: String, starred: Bool, for account: AccountID, at date: Date = Date()) throws(StoreError) {
        try write { db in
            if starred {
                try FavouriteRecord(accountId: account.rawValue, showId: show, createdAt: date).insert(db, onConflict: .ignore)
            } else {
                _ = try FavouriteRecord.deleteOne(db, key: ["accountId": account.rawValue, "showId": show])
            }
        }
    }

    /// Appends to the event log. `detail` must hold no secret.
    public func recordEvent(_ kind: String, session: SessionKey?, account: AccountID?, detail: [String: String] = [:], at date: Date = Date()) throws(StoreError) {
        try write { db in try Self.log(kind, session: session, account: account, detail, db: db, at: date) }
    }

    // MARK: - Steps, always inside a caller's transaction

    private static func makeActive(
        _ account: AccountID, session: SessionKey, previous: ActiveAccount, reason: StatusChangeReason,
        db: Database, at date: Date
    ) throws -> UserStatusChanged {
        try forgetClosedTerminals(db, at: date)
        try choose(account, session: session, db: db, at: date)
        try db.execute(sql: "UPDATE account SET lastUsedAt = ?, useCount = useCount + 1 WHERE id = ?", arguments: [date, account.rawValue])
        return UserStatusChanged(session: session, previous: previous, current: try active(db, session: session), reason: reason)
    }

    private static func signOut(session: SessionKey, previous: ActiveAccount, db: Database, at date: Date) throws -> UserStatusChanged {
        try forgetClosedTerminals(db, at: date)
        try choose(nil, session: session, db: db, at: date)
        try log("signOut", session: session, account: previous.id, [:], db: db, at: date)
        return UserStatusChanged(session: session, previous: previous, current: .anonymous, reason: .signedOut)
    }

    /// Signs out every session acting as `account` (but `except`), logging
    /// each with its reason; returns the changes for the bus.
    static func signOutSessions(
        of account: AccountID, except: SessionKey? = nil, reason: StatusChangeReason, db: Database, at date: Date
    ) throws -> [UserStatusChanged] {
        var changes: [UserStatusChanged] = []
        for row in try SessionRecord.filter(Column("accountId") == account.rawValue && Column("key") != except?.rawValue).fetchAll(db) {
            let key = SessionKey(stored: row.key, lifetime: row.lifetime)
            let before = try active(db, session: key)
            try choose(nil, session: key, db: db, at: date)
            let detail: [String: String] =
                switch reason {
                case .revoked(let identity): ["reason": "revoked", "identity": identity.description]
                case .disconnected(let identity): ["reason": "disconnected", "identity": identity.description]
                default: ["reason": "\(reason)"]
                }
            try log("signOut", session: key, account: account, detail, db: db, at: date)
            changes.append(UserStatusChanged(session: key, previous: before, current: .anonymous, reason: reason))
        }
        return changes
    }

    private static func merge(
        _ source: AccountID, into target: AccountID, session: SessionKey, previous: ActiveAccount,
        db: Database, at date: Date
    ) throws -> UserStatusChanged {
        guard source != target else { throw StoreError.accountNotFound(source.description) }
        let directory = DatabaseDirectory(db: db)
        for id in [source, target] where try !AccountRecord.exists(db, key: id.rawValue) {
            throw StoreError.accountNotFound(id.description)
        }
        let clash = Set(try directory.identities(of: source).map(\.provider))
            .intersection(try directory.identities(of: target).map(\.provider))
        guard clash.isEmpty else { throw StoreError.mergeRefused(clash.sorted()) }
        // The source's PIN would be lost with it.
        if try PINRecord.exists(db, key: PINOwner.account(source).key) { throw StoreError.mergeOfProtected(PINOwner.account(source).description) }
        // Other sessions acting as the source would act as a target with a PIN without giving it: they are signed out.
        if try PINRecord.exists(db, key: PINOwner.account(target).key) {
            _ = try signOutSessions(of: source, except: session, reason: .merged, db: db, at: date)
        }
        let ids: StatementArguments = [target.rawValue, source.rawValue]
        try db.execute(sql: "UPDATE identity SET accountId = ? WHERE accountId = ?", arguments: ids)
        try db.execute(sql: """
            INSERT OR IGNORE INTO favourite (accountId, showId, createdAt)
            SELECT ?, showId, createdAt FROM favourite WHERE accountId = ?
            """, arguments: ids)
        // Other sessions acting as the source now act as the target: logged, not silent.
        let moved = try String.fetchAll(db, sql: "SELECT key FROM session WHERE accountId = ? AND key != ?", arguments: [source.rawValue, session.rawValue])
        try db.execute(sql: "UPDATE session SET accountId = ? WHERE accountId = ?", arguments: ids)
        for key in moved {
            try log("merge", session: SessionKey(stored: key), account: target, ["from": source.description], db: db, at: date)
        }
        try db.execute(sql: """
            UPDATE account SET
              useCount = useCount + (SELECT useCount FROM account WHERE id = ?2),
              lastUsedAt = max(coalesce(lastUsedAt, 0), coalesce((SELECT lastUsedAt FROM account WHERE id = ?2), 0))
            WHERE id = ?1
            """, arguments: ids)
        _ = try AccountRecord.deleteOne(db, key: source.rawValue)
        try log("merge", session: session, account: target, ["from": source.description], db: db, at: date)
        return UserStatusChanged(session: session, previous: previous, current: try active(db, session: session), reason: .merged)
    }

    /// Updates what the provider says about a known identity, and its tokens.
    private static func refresh(_ identity: LinkedIdentity, tokens: TokenSet?, db: Database, at date: Date) throws {
        if let tokens { try CredentialRecord(identity.identity, tokens, at: date).upsert(db) }
        try db.execute(
            sql: "UPDATE identity SET displayName = ?, email = ?, emailKey = ?, emailVerified = ?, state = ?, checkedAt = ?, login = ? WHERE provider = ? AND subject = ?",
            arguments: [identity.displayName, identity.email, identity.email.map(AccountOrder.emailKey), identity.emailVerified, identity.state.rawValue, date,
                        identity.login,
                        identity.provider.rawValue, identity.identity.subject])
    }

    /// Stores who `session` acts as (`StoreSchema.chooseSQL`). A session
    /// named from elsewhere may not change a terminal's own session while
    /// that terminal may still be open: only the terminal changes it. (The
    /// sessions of closed terminals are forgotten once per choice made in a
    /// session, by `makeActive` and `signOut`, not again for every session
    /// a merge or disconnect signs out.)
    private static func choose(_ account: AccountID?, session: SessionKey, db: Database, at date: Date) throws {
        if session.lifetime == nil, try String.fetchOne(db, sql: "SELECT lifetime FROM session WHERE key = ?", arguments: [session.rawValue]) != nil {
            throw StoreError.terminalSession(session.rawValue)
        }
        try db.execute(sql: StoreSchema.chooseSQL, arguments: [session.rawValue, account?.rawValue, date, session.lifetime])
    }

    /// Deletes the session rows of terminals that are closed (their session
    /// leader gone, or of an earlier boot), logging each as `ended` with who
    /// it acted as. A lifetime that cannot be judged is kept.
    static func forgetClosedTerminals(_ db: Database, at date: Date) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT key, accountId, lifetime FROM session WHERE lifetime IS NOT NULL")
        for row in rows {
            let lifetime: String = row[2]
            guard TerminalIdentity.isOpen(lifetime) == false else { continue }
            let key: String = row[0], account: Int64? = row[1]
            try db.execute(sql: "DELETE FROM session WHERE key = ? AND lifetime = ?", arguments: [key, lifetime])
            try log("ended", session: SessionKey(stored: key), account: account.map { AccountID($0) }, [:], db: db, at: date)
        }
    }

    /// Who the session stored as `name` acts as, whichever terminal (if
    /// any) chose it, with that terminal's lifetime: what a change feed
    /// reports for an event of that session.
    static func stored(_ db: Database, name: String) throws -> (active: ActiveAccount, lifetime: String?) {
        guard let row = try Row.fetchOne(db, sql: StoreSchema.activeSQL, arguments: [name]) else { return (.anonymous, nil) }
        let lifetime: String? = row[1]
        return (try active(db, session: SessionKey(stored: name, lifetime: lifetime)), lifetime)
    }

    static func log(_ kind: String, session: SessionKey?, account: AccountID?, _ detail: [String: String], db: Database, at date: Date) throws {
        let json = String(decoding: try JSONEncoder.sorted.encode(detail), as: UTF8.self)
        var event = EventRecord(at: date, session: session?.rawValue, kind: kind, accountId: account?.rawValue, detail: json)
        try event.insert(db)
    }

    /// A new account's name: the provider's display name, else the email's
    /// local part, else "provider user".
    static func name(for identity: LinkedIdentity) -> String {
        if let name = identity.displayName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return name }
        if let email = identity.email, let local = email.split(separator: "@").first, !local.isEmpty { return String(local) }
        return "\(identity.provider) user"
    }
}

extension JSONEncoder {
    /// Keys sorted, so logs and output are stable.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
