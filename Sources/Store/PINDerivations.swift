import Foundation
import PINHash
import SwitchboardCore

/// What a PIN typed derives to with each stored PIN's parameters, worked
/// out before a write's transaction begins. The slow part of a PIN check
/// (PBKDF2, a quarter of a second) then runs while nothing is locked (on a
/// shared store, the fleet's write lock; on a file, the file), and may be
/// given up (`write(derivingPIN:for:unless:_:)`) before anything changes;
/// inside the transaction `tryPIN` only compares, or hands the server what
/// was derived. A PIN changed in between derives again there.
struct PINDerivations {
    private struct Key: Hashable {
        let pin: String
        let algorithm: String
        let rounds: Int
        let salt: Data
    }

    private var derived: [Key: [UInt8]] = [:]

    /// What `pin` derives to with `row`'s parameters, if worked out already.
    func candidate(_ pin: String, for row: PINRecord) -> [UInt8]? {
        derived[Key(pin: pin, algorithm: row.algorithm, rounds: row.rounds, salt: row.salt)]
    }

    /// Works out what `pin` derives to with `row`'s parameters.
    mutating func derive(_ pin: String, for row: PINRecord) {
        let key = Key(pin: pin, algorithm: row.algorithm, rounds: row.rounds, salt: row.salt)
        guard derived[key] == nil else { return }
        derived[key] = StoredPIN.candidate(pin, algorithm: row.algorithm, rounds: row.rounds, salt: Array(row.salt)) ?? []
    }
}

extension PINProof {
    /// The digits given, and whose PIN they were given as.
    var given: (pin: String, owner: (AccountID) -> PINOwner) {
        switch self {
        case .account(let pin): (pin, { .account($0) })
        case .operatorPIN(let pin): (pin, { _ in .operatorPIN })
        }
    }
}

extension AppDatabase {
    /// `write`, with what `pin` derives to for the PINs of `owners` (read
    /// in a read of their own, before the write) worked out beforehand.
    /// When `cancelled` says so once that is done (the person pressed Esc
    /// meanwhile), nothing is written: `StoreError.cancelled`.
    func write<T>(
        derivingPIN pin: String?, for owners: @escaping (any SQLConnection) throws -> [PINOwner],
        unless cancelled: @Sendable () -> Bool = { false }, _ body: (any SQLConnection) throws -> T
    ) throws(StoreError) -> T {
        var derivations = PINDerivations()
        if let pin, PIN.isWellFormed(pin) {
            let rows = try read { db in try owners(db).compactMap { try PINRecord.fetch($0, db: db) } }
            for row in rows { derivations.derive(pin, for: row) }
        }
        if cancelled() { throw .cancelled }
        return try write(body, derivations: derivations)
    }
}
