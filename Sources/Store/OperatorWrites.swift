import Foundation
import SwitchboardCore

// What an operator does to another station from the board: each write
// checks the operator PIN in its own transaction (a wrong one is counted
// and committed, as everywhere) and logs the operator's session.
extension AppDatabase {

    /// Signs `session` out for the operator at `operatorSession`: logged in
    /// that session as a sign-out with `operator` naming where it came from.
    public func signOut(
        session: SessionKey, byOperatorAt operatorSession: SessionKey, operatorPIN: String, at date: Date = Date()
    ) throws(StoreError) -> UserStatusChanged {
        let outcome: Result<UserStatusChanged, StoreError> = try write(derivingPIN: operatorPIN, for: { _ in [.operatorPIN] }) { db in
            if case .failure(let error) = try Self.operatorVerdict(operatorPIN, session: operatorSession, db: db, at: date, rounds: pinRounds) {
                return .failure(error)
            }
            let previous = try Self.active(db, session: session)
            return .success(try Self.signOut(
                session: session, previous: previous, detail: ["operator": operatorSession.rawValue], db: db, at: date))
        }
        return try outcome.get()
    }

    /// Disconnects `identity` of `account` everywhere for the operator at
    /// `operatorSession`: the operator PIN is checked first in the same
    /// transaction, whether or not the account has a PIN of its own, and
    /// the event is logged in the operator's session, naming it. An
    /// identity that is no longer `account`'s (merged or gone since the
    /// operator chose it) is not found.
    public func disconnect(
        _ identity: Identity, of account: AccountID, byOperatorAt operatorSession: SessionKey, operatorPIN: String, at date: Date = Date()
    ) throws(StoreError) -> DisconnectResult {
        let outcome: Result<DisconnectResult, StoreError> = try write(derivingPIN: operatorPIN, for: { _ in [.operatorPIN] }) { db in
            if case .failure(let error) = try Self.operatorVerdict(operatorPIN, session: operatorSession, db: db, at: date, rounds: pinRounds) {
                return .failure(error)
            }
            guard try Rows.identity(identity, db: db)?.account == account else { throw StoreError.identityNotFound(identity.description) }
            return try Self.disconnect(
                identity, session: operatorSession, admission: .operatorChecked, detail: ["operator": operatorSession.rawValue],
                db: db, at: date, rounds: pinRounds)
        }
        return try outcome.get()
    }
}
