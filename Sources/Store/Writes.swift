import Foundation
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
    /// active, stores the tokens (on a file; a shared store changes nothing
    /// of the person before the PIN) and ends as `needsPIN`: a switch with
    /// the PIN makes it active.
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
                // Approving a code is no PIN: an account with one is made active by a switch
                // that gives it (the tokens just stored stay for then; a station's own role
                // on a shared store keeps only the tokens of what its sessions have active).
                if id != previous.id, let refusal = try Self.admit(id, proof: nil, db: db, at: date, rounds: pinRounds) {
                    try Self.keepForThePIN(identity, tokens: tokens, db: db, at: date)
                    return .success(.needsPIN(account: id, refusal: refusal))
                }
                // Active first, so that its tokens are stored where the account is active.
                let change = try Self.makeActive(id, session: session, previous: previous, reason: .signedIn(isNew: false), db: db, at: date)
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                try Self.log("signIn", session: session, account: id, ["identity": identity.identity.description], db: db, at: date)
                return .success(.completed(account: change.current.account!, isNew: false, linked: false, change: change, possibleMatches: matches))
            case .createAccount:
                let id = try Rows.insertAccount(name: Self.name(for: identity), at: date, db: db)
                try Rows.insertIdentity(identity, account: id, at: date, db: db)
                let change = try Self.makeActive(id, session: session, previous: previous, reason: .signedIn(isNew: true), db: db, at: date)
                if let tokens { try Rows.saveTokens(tokens, for: identity.identity, at: date, db: db) }
                try Self.log("signIn", session: session, account: id, ["identity": identity.identity.description, "isNew": "true"], db: db, at: date)
                return .success(.completed(account: change.current.account!, isNew: true, linked: false, change: change, possibleMatches: matches))
            case .link(let id):
                try Rows.insertIdentity(identity, account: id, at: date, db: db)
                if let tokens { try Rows.saveTokens(tokens, for: identity.identity, at: date, db: db) }
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
                // A switch, as any other: an account with a PIN takes it (`switchAccount(to:session:pin:)`);
                // the tokens just signed in for are kept for when it is given.
                if let refusal = try Self.admit(owner, proof: nil, db: db, at: date, rounds: pinRounds) {
                    try Self.keepForThePIN(identity, tokens: tokens, db: db, at: date)
                    return .failure(refusal)
                }
                let change = try Self.makeActive(owner, session: session, previous: previous, reason: .switched, db: db, at: date)
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                try Self.log("switch", session: session, account: owner, ["conflict": conflict.identity.description], db: db, at: date)
                return .success(change)
            case .merge(let source, let target):
                let change = try Self.merge(source, into: target, session: session, previous: previous, db: db, at: date)
                try Self.refresh(identity, tokens: tokens, db: db, at: date)
                return .success(change)
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
    ///
    /// `cancelled` is asked once the PIN is derived, before anything is
    /// written: a switch the person took back (Esc) throws `cancelled`.
    public func switchAccount(
        to account: AccountID?, session: SessionKey, pin: PINProof? = nil, at date: Date = Date(),
        unless cancelled: @Sendable () -> Bool = { false }
    ) throws(StoreError) -> UserStatusChanged {
        let outcome: Result<UserStatusChanged, StoreError> = try write(
            derivingPIN: pin?.given.pin, for: { _ in account.flatMap { id in pin.map { [$0.given.owner(id)] } } ?? [] }, unless: cancelled
        ) { db in
            let previous = try Self.active(db, session: session)
            guard let account else {
                return .success(try Self.signOut(session: session, previous: previous, db: db, at: date))
            }
            guard try Rows.accountExists(account, db: db) else {
                throw StoreError.accountNotFound(account.description)
            }
            if let refusal = try Self.admit(account, proof: pin, db: db, at: date, rounds: pinRounds) {
                try Self.logWrongPIN(refusal, given: pin, session: session, account: account, db: db, at: date)
                return .failure(refusal)
            }
            let change = try Self.makeActive(account, session: session, previous: previous, reason: .switched, db: db, at: date)
            try Self.log("switch", session: session, account: account, [:], db: db, at: date)
            return .success(change)
        }
        return try outcome.get()
    }

    /// Makes `session` anonymous. Identities stay available. The log says
    /// why (`reason`), unless the person asked.
    public func signOut(session: SessionKey, reason: SignOutReason = .asked, at date: Date = Date()) throws(StoreError) -> UserStatusChanged {
        try write { db in
            let detail = reason == .asked ? [:] : ["reason": reason.rawValue]
            return try Self.signOut(session: session, previous: try Self.active(db, session: session), detail: detail, db: db, at: date)
        }
    }

    /// Moves `source`'s identities, favourites and sessions into `target`
    /// and deletes `source`. Both may hold identities at one provider: the
    /// target then holds them all (`IdentityRule.standard`, the rule a link
    /// follows too).
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
        let outcome: Result<DisconnectResult, StoreError> = try write(
            derivingPIN: pin?.given.pin, for: { db in try Rows.identity(identity, db: db).flatMap { owner in pin.map { [$0.given.owner(owner.account)] } } ?? [] }
        ) { db in
            try Self.disconnect(identity, session: session, admission: .proof(pin), detail: [:], db: db, at: date, rounds: pinRounds)
        }
        return try outcome.get()
    }

    /// `disconnect`'s rule inside a write; `detail` goes into its event beside the identity.
    static func disconnect(
        _ identity: Identity, session: SessionKey, admission: Admission, detail: [String: String], db: any SQLConnection, at date: Date, rounds: Int
    ) throws -> Result<DisconnectResult, StoreError> {
        let previous = try active(db, session: session)
        guard let owner = try Rows.identity(identity, db: db)?.account else {
            throw StoreError.identityNotFound(identity.description)
        }
        if let refusal = try admit(owner, admission, db: db, at: date, rounds: rounds) { return .failure(refusal) }
        let forgotten = try Rows.tokens(of: identity, db: db)
        let name = try db.value("SELECT name FROM account WHERE id = $1", [owner.rawValue], as: String.self)
        try db.execute("DELETE FROM identity WHERE provider = $1 AND subject = $2", identity.key)
        let remaining = try db.value("SELECT count(*) FROM identity WHERE accountId = $1", [owner.rawValue], as: Int.self) ?? 0
        var signedOut: [UserStatusChanged] = []
        if remaining == 0 {
            // Every other session acting as the account is told, not silently emptied.
            signedOut = try signOutSessions(of: owner, except: session, reason: .disconnected(identity), db: db, at: date)
            try db.execute("DELETE FROM account WHERE id = $1", [owner.rawValue])
        }
        try log("disconnect", session: session, account: owner, name: name,
                detail.merging(["identity": identity.description, "accountRemoved": String(remaining == 0)]) { $1 }, db: db, at: date)
        let change = UserStatusChanged(
            session: session, previous: previous, current: try active(db, session: session), reason: .disconnected(identity))
        return .success(DisconnectResult(
            identity: identity, owner: owner, change: change, accountRemoved: remaining == 0, signedOut: signedOut, forgotten: forgotten))
    }

    /// Lets `session` use `account`'s tokens: always where it is the active
    /// account; elsewhere an account with a PIN takes its PIN or the
    /// operator PIN (`admit`), counted as any other try.
    public func admitTokenUse(of account: AccountID, session: SessionKey, pin: PINProof? = nil, at date: Date = Date()) throws(StoreError) {
        let outcome: Result<Void, StoreError> = try write(derivingPIN: pin?.given.pin, for: { _ in pin.map { [$0.given.owner(account)] } ?? [] }) { db in
            guard try Rows.accountExists(account, db: db) else { throw StoreError.accountNotFound(account.description) }
            if try Self.activeID(db, session: session) == account { return .success(()) }
            if let refusal = try Self.admit(account, proof: pin, db: db, at: date, rounds: pinRounds) { return .failure(refusal) }
            return .success(())
        }
        try outcome.get()
    }

    /// Stars or unstars a show for an account.
    public func setFavourite(_ show: String, starred: Bool, for account: AccountID, at date: Date = Date()) throws(StoreError) {
        try write { db -> Void in
            if starred {
                try db.execute(
                    "INSERT INTO favourite (accountId, showId, createdAt) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    [account.rawValue, show, date])
            } else {
                try db.execute("DELETE FROM favourite WHERE accountId = $1 AND showId = $2", [account.rawValue, show])
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
        db: any SQLConnection, at date: Date
    ) throws -> UserStatusChanged {
        let terminals = try forgetClosedTerminals(db, at: date)
        try choose(account, session: session, db: db, at: date, terminals: terminals)
        try db.execute("UPDATE account SET lastUsedAt = $1, useCount = useCount + 1 WHERE id = $2", [date, account.rawValue])
        return UserStatusChanged(session: session, previous: previous, current: try active(db, session: session), reason: reason)
    }

    static func signOut(
        session: SessionKey, previous: ActiveAccount, detail: [String: String] = [:], db: any SQLConnection, at date: Date
    ) throws -> UserStatusChanged {
        let terminals = try forgetClosedTerminals(db, at: date)
        try choose(nil, session: session, db: db, at: date, terminals: terminals)
        try log("signOut", session: session, account: previous.id, detail, db: db, at: date)
        return UserStatusChanged(session: session, previous: previous, current: .anonymous, reason: .signedOut)
    }

    /// Signs out every session acting as `account` (but `except`), logging
    /// each with its reason; returns the changes for the bus.
    static func signOutSessions(
        of account: AccountID, except: SessionKey? = nil, reason: StatusChangeReason, db: any SQLConnection, at date: Date
    ) throws -> [UserStatusChanged] {
        var changes: [UserStatusChanged] = []
        let rows = try db.map("SELECT key, lifetime FROM session WHERE accountId = $1 ORDER BY key", [account.rawValue]) { row in
            SessionKey(stored: try row[0], lifetime: try row[1])
        }
        for key in rows where key.rawValue != except?.rawValue {
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
        db: any SQLConnection, at date: Date
    ) throws -> UserStatusChanged {
        guard source != target else { throw StoreError.accountNotFound(source.description) }
        let directory = DatabaseDirectory(db: db)
        for id in [source, target] where try !Rows.accountExists(id, db: db) {
            throw StoreError.accountNotFound(id.description)
        }
        // The rule a link follows too (`Authenticator.decide`).
        if let refused = Authenticator().rule.refusal(adding: try directory.identities(of: source), to: try directory.identities(of: target)) {
            throw StoreError.mergeRefused(refused)
        }
        // The source's PIN would be lost with it.
        if try Self.hasPIN(.account(source), db: db) { throw StoreError.mergeOfProtected(PINOwner.account(source).description) }
        // Other sessions acting as the source would act as a target with a PIN without giving it: they are signed out.
        if try Self.hasPIN(.account(target), db: db) {
            _ = try signOutSessions(of: source, except: session, reason: .merged, db: db, at: date)
        }
        let ids: [any SQLBindable] = [target.rawValue, source.rawValue]
        try db.execute("UPDATE identity SET accountId = $1 WHERE accountId = $2", ids)
        try db.execute("""
            INSERT INTO favourite (accountId, showId, createdAt)
            SELECT $1, showId, createdAt FROM favourite WHERE accountId = $2
            ON CONFLICT DO NOTHING
            """, ids)
        // Other sessions acting as the source now act as the target: logged, not silent.
        let moved = try db.column(
            "SELECT key FROM session WHERE accountId = $1 AND key != $2 ORDER BY key", [source.rawValue, session.rawValue], as: String.self)
        try db.execute("UPDATE session SET accountId = $1 WHERE accountId = $2", ids)
        for key in moved {
            try log("merge", session: SessionKey(stored: key), account: target, ["from": source.description], db: db, at: date)
        }
        // The later of the two last uses (either may be none).
        try db.execute("""
            UPDATE account SET
              useCount = useCount + (SELECT useCount FROM account WHERE id = $2),
              lastUsedAt = CASE
                WHEN lastUsedAt IS NULL THEN (SELECT lastUsedAt FROM account WHERE id = $2)
                WHEN (SELECT lastUsedAt FROM account WHERE id = $2) > lastUsedAt THEN (SELECT lastUsedAt FROM account WHERE id = $2)
                ELSE lastUsedAt END
            WHERE id = $1
            """, ids)
        try db.execute("DELETE FROM account WHERE id = $1", [source.rawValue])
        try log("merge", session: session, account: target, ["from": source.description], db: db, at: date)
        return UserStatusChanged(session: session, previous: previous, current: try active(db, session: session), reason: .merged)
    }

    /// A sign-in that waits for a PIN: its tokens are kept for the switch
    /// that gives it. On a shared store only the tokens, which the server
    /// keeps only for a role that may (a station's role keeps none for a
    /// person it does not have active); nothing else of the person changes
    /// before the PIN.
    private static func keepForThePIN(_ identity: LinkedIdentity, tokens: TokenSet?, db: any SQLConnection, at date: Date) throws {
        guard db.isShared else { return try refresh(identity, tokens: tokens, db: db, at: date) }
        if let tokens { try Rows.saveTokens(tokens, for: identity.identity, at: date, db: db) }
    }

    /// Updates what the provider says about a known identity, and its tokens.
    private static func refresh(_ identity: LinkedIdentity, tokens: TokenSet?, db: any SQLConnection, at date: Date) throws {
        if let tokens { try Rows.saveTokens(tokens, for: identity.identity, at: date, db: db) }
        try db.execute(
            """
            UPDATE identity SET displayName = $1, email = $2, emailKey = $3, emailVerified = $4, state = $5, checkedAt = $6, login = $7
            WHERE provider = $8 AND subject = $9
            """,
            [identity.displayName, identity.email, identity.email.map(AccountOrder.emailKey), identity.emailVerified, identity.state.rawValue,
             date, identity.login, identity.provider.rawValue, identity.identity.subject])
    }

    /// Stores who `session` acts as (`StoreSchema.chooseSQL`). A session
    /// named from elsewhere may not change a terminal's own session while
    /// that terminal may still be open: only the terminal changes it. (The
    /// sessions of closed terminals are forgotten once per choice made in a
    /// session, by `makeActive` and `signOut`, not again for every session
    /// a merge or disconnect signs out.) On a shared store a named session
    /// may sign a station's terminal out, as an operator does, but not
    /// switch it to someone.
    ///
    /// `terminals`, when given, are the keys of every terminal's session
    /// row (as `forgetClosedTerminals` leaves them), which spares a read.
    private static func choose(
        _ account: AccountID?, session: SessionKey, db: any SQLConnection, at date: Date, terminals: Set<String>? = nil
    ) throws {
        let namesATerminal =
            try session.lifetime == nil
            && (terminals?.contains(session.rawValue)
                ?? db.exists("SELECT 1 FROM session WHERE key = $1 AND lifetime IS NOT NULL", [session.rawValue]))
        if namesATerminal {
            // A fleet's operator signs a station's terminal out from anywhere; the row stays the terminal's.
            guard db.isShared, account == nil else { throw StoreError.terminalSession(session.rawValue) }
            try db.execute("UPDATE session SET accountId = NULL, updatedAt = $2 WHERE key = $1", [session.rawValue, date])
            return
        }
        try db.execute(StoreSchema.chooseSQL, [session.rawValue, account?.rawValue, date, session.lifetime])
    }

    /// Deletes the session rows of terminals that are closed (their session
    /// leader gone, or of an earlier boot), logging each as `ended` with who
    /// it acted as. A lifetime that cannot be judged is kept. Returns the keys of the terminals' session rows that are left.
    @discardableResult
    static func forgetClosedTerminals(_ db: any SQLConnection, at date: Date) throws -> Set<String> {
        let rows = try db.map("SELECT key, accountId, lifetime FROM session WHERE lifetime IS NOT NULL ORDER BY key") { row in
            (key: try row[0] as String, account: try row[1] as Int64?, lifetime: try row[2] as String)
        }
        var left: Set<String> = []
        for (key, account, lifetime) in rows {
            guard TerminalIdentity.isOpen(lifetime) == false else {
                left.insert(key)
                continue
            }
            try db.execute("DELETE FROM session WHERE key = $1 AND lifetime = $2", [key, lifetime])
            try log("ended", session: SessionKey(stored: key), account: account.map { AccountID($0) }, [:], db: db, at: date)
        }
        return left
    }

    /// Who the session stored as `name` acts as, whichever terminal (if
    /// any) chose it, with that terminal's lifetime: what a change feed
    /// reports for an event of that session.
    static func stored(_ db: any SQLConnection, name: String) throws -> (active: ActiveAccount, lifetime: String?) {
        let stored = try storedSession(db, name: name)
        return (stored.account.map { .account($0) } ?? .anonymous, stored.row?.lifetime)
    }

    /// A PIN given wrong at a switch: logged with the session (never the
    /// digits), and until when the account is locked out, if it now is,
    /// so the fleet shows the station locked out (`AppDatabase.fleet()`).
    private static func logWrongPIN(
        _ refusal: StoreError, given pin: PINProof?, session: SessionKey, account: AccountID, db: any SQLConnection, at date: Date
    ) throws {
        // Only a try that was counted: one made while locked out is not looked at, and changes nothing.
        guard let pin, case .wrongPIN(_, let until) = refusal else { return }
        let given: String = if case .operatorPIN = pin { "operator PIN" } else { "account PIN" }
        var detail: [String: String] = ["given": given]
        detail["lockedUntil"] = until.map { ISO8601DateFormatter().string(from: $0) }
        try log("wrongPIN", session: session, account: account, detail, db: db, at: date)
    }

    static func log(
        _ kind: String, session: SessionKey?, account: AccountID?, name: String? = nil, _ detail: [String: String], db: any SQLConnection, at date: Date
    ) throws {
        let json = String(decoding: try JSONEncoder.sorted.encode(detail), as: UTF8.self)
        try Rows.insertEvent(kind: kind, session: session?.rawValue, account: account, name: name, detail: json, at: date, db: db)
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
