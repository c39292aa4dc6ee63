import ChooserUI
import Foundation
import ScreenKit
import Store
import SwitchboardCore

/// A station's own effects: the remembered person, the operator PIN, the
/// hand-off command, reboot and power off.
extension ChooserLoop where Program == Station {
    func performStation(_ effect: StationEffect) {
        let database = environment.database, session = state.session
        switch effect {
        case .chooser:
            break
        case .loadRemembered:
            link.call(database, { db throws(StoreError) in try db.lastActiveAccount(in: session) }) { [weak self] result in
                switch result {
                case .success(let id): self?.send(layer: .remembered(id))
                case .failure(let error): self?.fail(error)
                }
            }
        case .checkOperatorPIN(let pin):
            checkOperatorPIN(pin)
        case .handOff(let id):
            let now = environment.now
            guard let run = environment.handOff else { return reduce(layer: .handOffEnded(now(), notice: nil)) }
            handOff = Task { @MainActor [weak self] in
                let notice = await run(id)
                self?.send(layer: .handOffEnded(now(), notice: notice))
            }
        case .endHandOff:
            handOff?.cancel()
        case .power(let choice, let command):
            let run = environment.runCommand
            Task { @MainActor [weak self] in
                let outcome = await run(command)
                self?.send(layer: .powerCommandRan(choice, outcome))
            }
        }
    }

    /// Checks the operator PIN through the link (the hash is slow on purpose).
    private func checkOperatorPIN(_ pin: String) {
        let now = Date(timeIntervalSince1970: environment.now().secondsSince1970)
        let check = PendingPINCheck()
        pendingPINCheck = check
        link.call(environment.database, { db throws(StoreError) in try db.checkOperatorPIN(pin, at: now, unless: { check.isCancelled }) }) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(.cancelled): break
            case .success: self.send(layer: .operatorPINChecked(.accepted))
            case .failure(.pinNotSet):
                self.send(.notify("No operator PIN is set: set one with switchboard pin set --operator.", .warning))
                self.send(layer: .operatorPINChecked(.failed))
            case .failure(let error): self.send(layer: .operatorPINChecked(self.pinCheck(error)))
            }
        }
    }
}
