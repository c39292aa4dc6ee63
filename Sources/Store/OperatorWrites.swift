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
        let outcome: Result<UserStatusChanged, StoreError> = try write { db in
            if case .failure(let error) = try Self.operatorVerdict(operatorPIN, db: db, at: date, rounds: pinRounds) { return .failure(error) }
            let previous = try Self.active(db, session: session)
            return .success(try Self.signOut(
                session: session, previous: previous, detail: ["operator": operatorSession.rawValue], db: db, at: date))
        }
        return try outcome.get()
    }
}
