import Foundation
import PINHash
import SwitchboardCore

/// Whose PIN: a profile's (an account's), or the station operator's.
public enum PINOwner: Hashable, Sendable, CustomStringConvertible {
    /// The profile PIN asked for before switching to an account.
    case account(AccountID)
    /// The station operator's PIN, which stands in for any profile's when
    /// replacing, clearing or resetting it.
    case operatorPIN

    var key: String {
        switch self {
        case .account(let id): "account:\(id.rawValue)"
        case .operatorPIN: "operator"
        }
    }

    /// The owner a row's `key` names; nil for a key that names none.
    init?(key: String) {
        if key == "operator" {
            self = .operatorPIN
        } else if key.hasPrefix("account:"), let id = Int64(key.dropFirst("account:".count)) {
            self = .account(AccountID(id))
        } else {
            return nil
        }
    }

    /// The account whose PIN it is; nil for the operator PIN.
    var accountID: AccountID? {
        if case .account(let id) = self { id } else { nil }
    }

    /// "account 3's PIN", "the operator PIN": for messages.
    public var description: String {
        switch self {
        case .account(let id): "account \(id)'s PIN"
        case .operatorPIN: "the operator PIN"
        }
    }
}

/// What checking a PIN against the store found.
enum PINVerdict: Equatable {
    /// No PIN is set: nothing to check.
    case open
    case accepted
    /// A PIN is set and none was given.
    case missing
    case wrong(retryAt: Date?)
    case locked(until: Date)
}

extension AppDatabase {
    /// The accounts that have a PIN, for the lock mark.
    public func protectedAccounts() throws(StoreError) -> Set<AccountID> {
        try read { db in
            Set(try db.column("SELECT accountId FROM pin WHERE accountId IS NOT NULL", as: Int64.self).map { AccountID($0) })
        }
    }

    /// Whether `owner` has a PIN.
    public func hasPIN(_ owner: PINOwner) throws(StoreError) -> Bool {
        try read { db in try Self.hasPIN(owner, db: db) }
    }

    /// Sets (or, with `newPIN` nil, clears) a PIN, in one transaction.
    ///
    /// Replacing or clearing a profile's PIN takes its current PIN or the
    /// operator PIN as `proof`; the operator PIN takes the current operator
    /// PIN. A PIN not yet set needs no proof. A wrong proof is counted (on the
    /// profile and on the operator PIN, since either could have been meant)
    /// and the count is committed; then `wrongPIN` or `pinLockedOut` is thrown.
    public func setPIN(_ newPIN: String?, for owner: PINOwner, proof: String?, at date: Date = Date()) throws(StoreError) {
        if let newPIN { try Self.checkPINFormat(newPIN, field: "new PIN") }
        // Hashed before the transaction: the slow part holds no lock.
        let hashed = newPIN.map { StoredPIN(hashing: $0, rounds: pinRounds) }
        let outcome: Result<Void, StoreError> = try write(derivingPIN: proof, for: { _ in [owner, .operatorPIN] }) { db in
            if case .account(let id) = owner, try !Rows.accountExists(id, db: db) {
                throw StoreError.accountNotFound(id.description)
            }
            switch try Self.authorize(owner, proof: proof, db: db, at: date, rounds: pinRounds) {
            case .open, .accepted: break
            case .missing: return .failure(.pinRequired(try Self.spoken(owner, db: db)))
            case .wrong(let retryAt):
                // Logged as at a switch (never the digits): for a profile's PIN, either PIN may have been meant.
                var detail = ["given": owner == .operatorPIN ? "operator PIN" : "account or operator PIN"]
                detail["lockedUntil"] = retryAt.map { ISO8601DateFormatter().string(from: $0) }
                try Self.log("wrongPIN", session: nil, account: owner.accountID, detail, db: db, at: date)
                return .failure(.wrongPIN(try Self.spoken(owner, db: db), retryAt: retryAt))
            case .locked(let until): return .failure(.pinLockedOut(try Self.spoken(owner, db: db), until: until))
            }
            let accountID = owner.accountID
            try PINRecord.save(hashed, for: owner, setAt: date, db: db)
            try Self.log("pin", session: nil, account: accountID, ["change": hashed == nil ? "cleared" : "set", "owner": owner.key], db: db, at: date)
            return .success(())
        }
        try outcome.get()
    }

    /// Checks the operator PIN, counting a wrong one like any PIN's (one of
    /// the wrong form is refused uncounted) and logging it (`wrongPIN`, in
    /// `session` when given): the station's operator keys open only after this.
    /// `cancelled`: as for `switchAccount(to:session:pin:at:unless:)`.
    public func checkOperatorPIN(
        _ pin: String, session: SessionKey? = nil, at date: Date = Date(), unless cancelled: @Sendable () -> Bool = { false }
    ) throws(StoreError) {
        let outcome: Result<Void, StoreError> = try write(derivingPIN: pin, for: { _ in [.operatorPIN] }, unless: cancelled) { db in
            try Self.operatorVerdict(pin, session: session, db: db, at: date, rounds: pinRounds)
        }
        try outcome.get()
    }

    /// The operator PIN's check as an outcome, counted in `db`'s
    /// transaction; a wrong one is logged there as `wrongPIN` (given: the
    /// operator PIN; never the digits), in `session`, with until when the
    /// operator PIN is locked out if it now is.
    static func operatorVerdict(
        _ pin: String?, session: SessionKey?, db: any SQLConnection, at date: Date, rounds: Int
    ) throws -> Result<Void, StoreError> {
        switch try verify(.operatorPIN, pin: pin, db: db, at: date, rounds: rounds) {
        case .open: return .failure(.pinNotSet(PINOwner.operatorPIN.description))
        case .accepted: return .success(())
        case .missing: return .failure(.pinRequired(PINOwner.operatorPIN.description))
        case .wrong(let retryAt):
            var detail = ["given": "operator PIN"]
            detail["lockedUntil"] = retryAt.map { ISO8601DateFormatter().string(from: $0) }
            try log("wrongPIN", session: session, account: nil, detail, db: db, at: date)
            return .failure(.wrongPIN(PINOwner.operatorPIN.description, retryAt: retryAt))
        case .locked(let until): return .failure(.pinLockedOut(PINOwner.operatorPIN.description, until: until))
        }
    }

    /// Clears a profile's count of wrong PINs; takes the operator PIN, which
    /// is itself counted (and logged) when wrong. It is logged as a PIN
    /// change, `wrong tries cleared`: from the operator's board, or the
    /// command line at a terminal (`byOperatorAt`), in the operator's
    /// session and naming it; else with no session.
    public func resetPINAttempts(
        of account: AccountID, operatorPIN: String?, byOperatorAt operatorSession: SessionKey? = nil, at date: Date = Date()
    ) throws(StoreError) {
        let outcome: Result<Void, StoreError> = try write(derivingPIN: operatorPIN, for: { _ in [.operatorPIN] }) { db in
            guard try Rows.accountExists(account, db: db) else { throw StoreError.accountNotFound(account.description) }
            if case .failure(let error) = try Self.operatorVerdict(operatorPIN, session: operatorSession, db: db, at: date, rounds: pinRounds) {
                return .failure(error)
            }
            try Self.clearFailures(.account(account), db: db)
            var detail = ["change": "wrong tries cleared", "owner": PINOwner.account(account).key]
            detail["operator"] = operatorSession?.rawValue
            try Self.log("pin", session: operatorSession, account: account, detail, db: db, at: date)
            return .success(())
        }
        try outcome.get()
    }

    /// Clears the operator PIN's count of wrong tries without the PIN: the
    /// way back when the operator PIN is locked out (a wrong PIN at any
    /// station's operator key counts, for the whole fleet). On a shared
    /// store only the owner of the store's tables may, and the server
    /// refuses every other role; on a file, whoever may write it. Logged as
    /// a PIN change (`wrong tries cleared by the owner`), in `session`.
    public func clearOperatorLockout(session: SessionKey?, at date: Date = Date()) throws(StoreError) {
        try write { db in
            if db.dialect == .postgres,
                try db.value("SELECT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = 'pin'::regclass), 'USAGE')",
                             as: Bool.self) != true {
                throw StoreError.unavailable(
                    path: path, detail: "only the owner of the store's tables clears the operator PIN's wrong tries without it; run this as that role")
            }
            guard try Self.hasPIN(.operatorPIN, db: db) else { throw StoreError.pinNotSet(PINOwner.operatorPIN.description) }
            try Self.clearCount(PINOwner.operatorPIN.key, db: db)
            // And where the server counts tries beyond any rollback (the owner's own function).
            if db.dialect == .postgres { try db.execute("SELECT switchboard_pin_count('operator', 0, now())") }
            try Self.log("pin", session: session, account: nil, ["change": "wrong tries cleared by the owner", "owner": PINOwner.operatorPIN.key], db: db, at: date)
        }
    }

    /// How many wrong PINs in a row `owner` has, and when the next try may be made.
    public func pinAttempts(of owner: PINOwner, at date: Date = Date()) throws(StoreError) -> (failures: Int, lockedUntil: Date?) {
        try read { db in
            guard let row = try db.first(
                "SELECT failures, lastFailureAt FROM pin WHERE owner = $1", [owner.key], { row in (try row[0] as Int, try row[1] as Date?) })
            else { return (0, nil) }
            return (row.0, Lockout.lockedUntil(failures: row.0, lastFailure: row.1, now: date))
        }
    }

    // MARK: - Steps, always inside a caller's transaction

    /// Checks a PIN follows the rules (4 to 12 digits); the error names `field`.
    public static func checkPINFormat(_ pin: String, field: String) throws(StoreError) {
        do { try PIN.validate(pin, field: field) } catch { throw .badPIN(error.description) }
    }

    /// Checks `pin` against `owner`'s PIN and counts the outcome: a right
    /// PIN clears the count, a wrong one adds to it. A locked-out PIN is not
    /// looked at; a PIN of the wrong form is thrown as `badPIN` uncounted.
    static func verify(_ owner: PINOwner, pin: String?, db: any SQLConnection, at date: Date, rounds: Int) throws -> PINVerdict {
        guard let row = try PINRecord.fetch(owner, db: db) else { return .open }
        if let pin { try checkPINFormat(pin, field: "PIN") }
        let verdict = try tryPIN(row, pin, clearing: [], db: db, at: date)
        if verdict == .accepted, let pin { try rehashIfWeak(row, pin: pin, db: db, rounds: rounds) }
        return verdict
    }

    /// Replacing a profile's PIN: its own PIN or the operator's will do.
    /// Neither matching counts a failure on each that could be tried.
    static func authorize(_ owner: PINOwner, proof: String?, db: any SQLConnection, at date: Date, rounds: Int) throws -> PINVerdict {
        guard case .account = owner else { return try verify(owner, pin: proof, db: db, at: date, rounds: rounds) }
        guard let own = try PINRecord.fetch(owner, db: db) else { return .open }
        let station = try PINRecord.fetch(.operatorPIN, db: db)
        let ownLock = own.lockedUntil(now: date), stationLock = station?.lockedUntil(now: date)
        let candidates = [ownLock == nil ? own : nil, stationLock == nil ? station : nil].compactMap { $0 }
        if candidates.isEmpty { return .locked(until: [ownLock, stationLock].compactMap { $0 }.min()!) }
        guard let proof else { return .missing }
        try checkPINFormat(proof, field: "current PIN")
        var waits: [String: Date] = [:]
        for row in candidates {
            // The operator's PIN resets the profile's count too.
            switch try tryPIN(row, proof, clearing: [owner.key], db: db, at: date) {
            case .accepted: return .accepted
            case .wrong(let retryAt): waits[row.owner] = retryAt
            case .locked(let until): waits[row.owner] = until
            case .open, .missing: break
            }
        }
        // The profile's own wait is the one to tell; the operator's if only it was tried.
        return .wrong(retryAt: ownLock == nil ? waits[own.owner] : waits[PINOwner.operatorPIN.key])
    }

    /// Tries `pin` against `row` and counts the outcome, the one place a PIN
    /// is compared: a locked-out PIN is not looked at; none given is
    /// `missing`; a right one clears its count (the operator PIN's, also
    /// those of `clearing`), a wrong one adds to it. On a file, here; on a
    /// shared store the server's `switchboard_pin_try` compares what `pin`
    /// derives to with the row's salt, so the hash never leaves it, and
    /// counts by its own clock for a station's role.
    static func tryPIN(_ row: PINRecord, _ pin: String?, clearing: [String], db: any SQLConnection, at date: Date) throws -> PINVerdict {
        guard db.dialect == .postgres else {
            if let until = row.lockedUntil(now: date) { return .locked(until: until) }
            guard let pin else { return .missing }
            let stored = StoredPIN(algorithm: row.algorithm, rounds: row.rounds, salt: Array(row.salt), hash: Array(row.hash ?? Data()))
            let known = (db as? EventNotingConnection)?.derivations.candidate(pin, for: row)
            if known.map(stored.matches(candidate:)) ?? stored.matches(pin) {
                try clearCount(row.owner, db: db)
                if row.owner == PINOwner.operatorPIN.key { for other in clearing { try clearCount(other, db: db) } }
                return .accepted
            }
            let failures = try db.value(
                "UPDATE pin SET failures = failures + 1, lastFailureAt = $1 WHERE owner = $2 RETURNING failures", [date, row.owner], as: Int.self)
            return .wrong(retryAt: Lockout.retryAt(failures: failures ?? row.failures + 1, lastFailure: date))
        }
        // Worked out before the transaction when it could be; an unknown algorithm derives nothing, which matches no hash.
        let known = pin.flatMap { (db as? EventNotingConnection)?.derivations.candidate($0, for: row) }
        let candidate = pin.map { known ?? StoredPIN.candidate($0, algorithm: row.algorithm, rounds: row.rounds, salt: Array(row.salt)) ?? [] }
        let tried = try db.first(
            "SELECT tried_verdict, tried_failures, tried_last_failure FROM switchboard_pin_try($1::text, $2::bytea, $3::timestamptz, $4::text)",
            [row.owner, candidate.map { Data($0) }, date, clearing.joined(separator: "\n")]
        ) { row in (verdict: try row[0] as String, failures: try row[1] as Int, last: try row[2] as Date?) }
        guard let tried else { throw SQLDecodingError(description: "the server's PIN check answered nothing") }
        switch tried.verdict {
        case "open": return .open
        case "accepted": return .accepted
        case "missing": return .missing
        case "locked":
            return .locked(until: Lockout.retryAt(failures: tried.failures, lastFailure: tried.last) ?? date)
        case "wrong": return .wrong(retryAt: Lockout.retryAt(failures: tried.failures, lastFailure: tried.last))
        default: throw SQLDecodingError(description: "the server's PIN check answered \(String(reflecting: tried.verdict))")
        }
    }

    /// A PIN stored with parameters weaker than today's (`rounds`) is
    /// stored again with today's while it is known: raising the work factor
    /// needs no reset.
    private static func rehashIfWeak(_ row: PINRecord, pin: String, db: any SQLConnection, rounds: Int) throws {
        let stored = StoredPIN(algorithm: row.algorithm, rounds: row.rounds, salt: Array(row.salt), hash: [])
        guard stored.needsRehash(toward: rounds), let owner = PINOwner(key: row.owner) else { return }
        try PINRecord.save(StoredPIN(hashing: pin, rounds: rounds), for: owner, setAt: row.setAt, db: db)
    }

    /// Clears `owner`'s count of wrong tries, after the operator PIN was
    /// given right in this transaction (on a shared store the server's
    /// `switchboard_pin_clear` holds it to that).
    private static func clearFailures(_ owner: PINOwner, db: any SQLConnection) throws {
        if db.dialect == .postgres {
            try db.execute("SELECT switchboard_pin_clear($1::text)", [owner.key])
        } else {
            try clearCount(owner.key, db: db)
        }
    }

    private static func clearCount(_ owner: String, db: any SQLConnection) throws {
        try db.execute("UPDATE pin SET failures = 0, lastFailureAt = NULL WHERE owner = $1 AND failures > 0", [owner])
    }

    /// Whether `owner` has a PIN, inside a transaction.
    static func hasPIN(_ owner: PINOwner, db: any SQLConnection) throws -> Bool {
        try db.exists("SELECT 1 FROM pin WHERE owner = $1", [owner.key])
    }

    /// The one rule for acting as an account that has a PIN: making it
    /// active in a session, handing out its tokens where it is not active,
    /// and removing it or its identities all take its PIN or the operator
    /// PIN. Nil when `account` has no PIN or `proof` is right; otherwise the
    /// refusal, with a wrong proof counted on the PIN it was offered as and a
    /// locked-out PIN not looked at. A proof of the wrong form is thrown as
    /// `badPIN` before anything is looked at, so it costs no try.
    static func admit(_ account: AccountID, proof: PINProof?, db: any SQLConnection, at date: Date, rounds: Int) throws -> StoreError? {
        let owner = PINOwner.account(account)
        guard let row = try PINRecord.fetch(owner, db: db) else { return nil }
        switch proof {
        case nil:
            if let until = row.lockedUntil(now: date) { return .pinLockedOut(try Self.spoken(owner, db: db), until: until) }
            return .pinRequired(try Self.spoken(owner, db: db))
        case .account(let pin):
            return try refusal(verify(owner, pin: pin, db: db, at: date, rounds: rounds), owner: owner, db: db)
        case .operatorPIN(let pin):
            let verdict = try verify(.operatorPIN, pin: pin, db: db, at: date, rounds: rounds)
            if verdict == .open { return .pinNotSet(PINOwner.operatorPIN.description) }
            if verdict == .accepted { try clearFailures(owner, db: db) }
            return try refusal(verdict, owner: .operatorPIN, db: db)
        }
    }

    /// `admit` for a write the operator's PIN may already have let on, in
    /// this transaction: then, as when the operator PIN is given to `admit`,
    /// the account's own count of wrong tries is cleared.
    static func admit(_ account: AccountID, _ admission: Admission, db: any SQLConnection, at date: Date, rounds: Int) throws -> StoreError? {
        switch admission {
        case .proof(let proof):
            return try admit(account, proof: proof, db: db, at: date, rounds: rounds)
        case .operatorChecked:
            try clearFailures(.account(account), db: db)
            return nil
        }
    }

    /// A verdict as a refusal naming `owner`; nil when it lets the caller on.
    /// "Ada Lovelace's PIN (account 3)", "the operator PIN": a PIN as its
    /// messages name it, by the account's name where there is one.
    static func spoken(_ owner: PINOwner, db: any SQLConnection) throws -> String {
        guard case .account(let id) = owner, let name = try db.value("SELECT name FROM account WHERE id = $1", [id.rawValue], as: String.self)
        else { return owner.description }
        return "\(name)'s PIN (account \(id))"
    }

    private static func refusal(_ verdict: PINVerdict, owner: PINOwner, db: any SQLConnection) throws -> StoreError? {
        switch verdict {
        case .open, .accepted: nil
        case .missing: .pinRequired(try spoken(owner, db: db))
        case .wrong(let retryAt): .wrongPIN(try spoken(owner, db: db), retryAt: retryAt)
        case .locked(let until): .pinLockedOut(try spoken(owner, db: db), until: until)
        }
    }
}

/// What lets a write act on an account with a PIN (`admit`).
enum Admission {
    /// Its PIN or the operator PIN, as `admit` checks it (nil: none given).
    case proof(PINProof?)
    /// The operator PIN, already checked in this transaction.
    case operatorChecked
}
