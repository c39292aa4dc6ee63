import Foundation
import PINHash
import SwitchboardCore

/// One row of `pin`. On a shared store the hash stays on the server
/// (`hash` nil): a PIN is tried by the server's function (`tryPIN`).
struct PINRecord {
    var owner: String
    var accountId: Int64?
    var algorithm: String
    var rounds: Int
    var salt: Data
    var hash: Data?
    var setAt: Date
    var failures: Int
    var lastFailureAt: Date?

    func lockedUntil(now: Date) -> Date? { Lockout.lockedUntil(failures: failures, lastFailure: lastFailureAt, now: now) }

    /// `owner`'s row, or nil when it has no PIN. On a file it is read whole
    /// (the write transaction holds the file). On a shared store the hash
    /// is not read: the server's functions lock the row, compare and count.
    static func fetch(_ owner: PINOwner, db: any SQLConnection) throws -> PINRecord? {
        let hash = db.dialect == .postgres ? "NULL::bytea" : "hash"
        return try db.first(
            "SELECT owner, accountId, algorithm, rounds, salt, \(hash), setAt, failures, lastFailureAt FROM pin WHERE owner = $1",
            [owner.key]
        ) { row in
            PINRecord(
                owner: try row[0], accountId: try row[1], algorithm: try row[2], rounds: try row[3], salt: try row[4], hash: try row[5],
                setAt: try row[6], failures: try row[7], lastFailureAt: try row[8])
        }
    }

    /// Stores `stored` as `owner`'s PIN (nil: clears it), replacing any it
    /// had, with no wrong tries. On a shared store through the server's
    /// `switchboard_pin_set`, which takes a PIN already set only after it,
    /// or the operator PIN, was given right in the same transaction.
    static func save(_ stored: StoredPIN?, for owner: PINOwner, setAt: Date, db: any SQLConnection) throws {
        if db.dialect == .postgres {
            try db.execute(
                "SELECT switchboard_pin_set($1::text, $2::bigint, $3::text, $4::integer, $5::bytea, $6::bytea, $7::timestamptz)",
                [owner.key, owner.accountID?.rawValue, stored?.algorithm, stored?.rounds, stored.map { Data($0.salt) },
                 stored.map { Data($0.hash) }, setAt])
            return
        }
        guard let stored else {
            try db.execute("DELETE FROM pin WHERE owner = $1", [owner.key])
            return
        }
        try db.execute(
            """
            INSERT INTO pin (owner, accountId, algorithm, rounds, salt, hash, setAt, failures, lastFailureAt)
            VALUES ($1, $2, $3, $4, $5, $6, $7, 0, NULL)
            ON CONFLICT (owner) DO UPDATE SET accountId = excluded.accountId, algorithm = excluded.algorithm,
              rounds = excluded.rounds, salt = excluded.salt, hash = excluded.hash, setAt = excluded.setAt,
              failures = 0, lastFailureAt = NULL
            """,
            [owner.key, owner.accountID?.rawValue, stored.algorithm, stored.rounds, Data(stored.salt), Data(stored.hash), setAt])
    }
}
