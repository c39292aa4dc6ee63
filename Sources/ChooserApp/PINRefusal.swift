import Foundation
import ScreenKit
import Store
import SwitchboardCore

extension PINCheck {
    /// What a PIN check's failure tells the dialog that asked, the one
    /// reading for every loop (the chooser's, a station's, the board's):
    /// wrong or locked out, as the store counted it; nil for any other
    /// failure, which the loop says as the store said it.
    static func refusal(_ error: StoreError) -> PINCheck? {
        switch error {
        case .wrongPIN(_, let retryAt): .wrong(retryAt: retryAt.map(Moment.init))
        case .pinLockedOut(_, let until): .locked(until: Moment(until))
        default: nil
        }
    }
}

extension Moment {
    /// The moment a store's `Date` names.
    init(_ date: Date) { self.init(secondsSince1970: date.timeIntervalSince1970) }
}
