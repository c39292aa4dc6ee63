import ChooserUI
import DeviceFlow
import Foundation
import QRCode
import Services
import Store
import SwitchboardCore

/// A sign-in in the chooser: the code, the wait, the ending, a conflict's
/// answer; and how a code is shown.
extension ChooserLoop {
    func startSignIn(_ providerID: ProviderID, mode: AuthMode) {
        generation += 1
        let current = generation
        let environment = environment, session = state.session
        // Every sign-in is traced, so the inspector can show it whenever `i` is pressed.
        let trace = FlowTrace(clock: environment.clock) { entries in
            Task { @MainActor [weak self] in
                // Until the next sign-in starts: the last entries may come as this one ends.
                guard let self, self.generation == current else { return }
                self.send(.signInTraced(entries))
            }
        }
        let task = Task { @MainActor [weak self] in
            let transport = environment.providers.transport
            let provider: ResolvedProvider
            let demoServer: String?
            do {
                let found = try await environment.providers.resolveForSignIn(providerID, trace: trace)
                provider = found.provider
                demoServer = provider.settings.kind == .demo ? found.startedDemo?.absoluteString ?? provider.endpoints.issuer : nil
            } catch {
                self?.ended(current, SignInEnding(outcome: SignInRun.outcome(for: error as? FlowFailure ?? .invalidResponse("\(error)"))))
                return
            }
            let run = SignInRun(provider: provider, mode: mode, session: session, database: environment.database,
                                bus: environment.bus, transport: transport, clock: environment.clock, trace: trace)
            guard let self, self.signIn?.generation == current else { return run.cancel() }
            self.signIn?.run = run
            do {
                let code = try await run.requestCode()
                guard self.signIn?.generation == current else { return }
                self.send(.codeReady(WaitingCode.of(code, demoServer: demoServer)))
            } catch {
                return self.ended(current, SignInEnding(outcome: SignInRun.outcome(for: error as? FlowFailure ?? .invalidResponse("\(error)"))))
            }
            do {
                let report = try await run.finish()
                self.finished(current, report, providerName: provider.settings.name)
            } catch {
                self.fail(error)
                self.ended(current, SignInEnding(outcome: .cancelled))
            }
        }
        signIn = (current, nil, task)
    }

    private func ended(_ generation: Int, _ ending: SignInEnding, conflict: ConflictDialog? = nil) {
        guard signIn?.generation == generation else { return }
        send(.signInEnded(ending, conflict: conflict))
    }

    private func finished(_ generation: Int, _ report: SignInReport, providerName: String) {
        guard signIn?.generation == generation else { return }
        if report.needsPIN != nil, let id = report.account?.id {
            // Approving a code does not stand in for the account's PIN: the switch asks for it.
            ended(generation, SignInEnding(outcome: .cancelled))
            signIn = nil
            send(.pinNeeded(id))
            send(.notify("\(report.account?.name.displaySafe ?? "That account") has a PIN: type it to switch.", .info))
        } else if let pending = report.conflict {
            pendingConflict = pending
            let owner = pending.conflict.owner, active = pending.conflict.active
            // The two accounts' names, for the dialog; their numbers should the store not say.
            link.call(environment.database, { db throws(StoreError) in (try db.account(owner)?.name, try db.account(active)?.name) }) {
                [weak self] result in
                let names = (try? result.get()) ?? (nil, nil)
                self?.ended(generation, SignInEnding(outcome: report.outcome), conflict: ConflictDialog(
                    conflict: pending.conflict, providerName: providerName, ownerName: names.0 ?? "account \(owner)",
                    activeName: names.1 ?? "account \(active)"))
            }
        } else {
            ended(generation, SignInEnding(outcome: report.outcome, accountName: report.account?.name, isNew: report.isNew, linked: report.linked))
            signIn = nil
        }
    }

    func resolveConflict(_ choice: ConflictChoice) {
        guard let pending = pendingConflict, let run = signIn?.run else { return }
        pendingConflict = nil
        signIn = nil
        // The run writes to its own store; through the link all the same, for the order and the deadline.
        link.call(environment.database, { _ throws(StoreError) in _ = try run.resolve(pending, choosing: choice) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                if choice == .cancel { self.send(.notify("Nothing changed: \(pending.identity.provider) stays with its own account.", .info)) }
            case .failure(.pinRequired), .failure(.wrongPIN), .failure(.pinLockedOut):
                // Switching to the identity's account is a switch like any other: its PIN first (the dialog shows a wait).
                self.send(.pinNeeded(pending.conflict.owner))
            case .failure(.mergeOfProtected):
                self.send(.notify("Not merged: the other account has a PIN. Switch to it instead, or clear its PIN first.", .warning))
            case .failure(let error):
                self.fail(error)
            }
        }
    }
}

extension WaitingCode {
    /// The dialog's view of a code: with the QR code of the complete URI.
    static func of(_ code: DeviceAuthorization, demoServer: String?) -> WaitingCode {
        WaitingCode(
            userCode: code.userCode, verificationURI: code.verificationURI.absoluteString,
            completeURI: code.verificationURIComplete?.absoluteString, expiresAt: Moment(secondsSince1970: code.expiresAt.timeIntervalSince1970), interval: code.interval,
            demoServer: demoServer, qrRows: qrRows(code.qrPayload))
    }

    /// The rows of a QR code for `payload`, drawn in half blocks.
    static func qrRows(_ payload: String) -> [String] {
        (try? QREncoder.encode(payload, errorCorrection: .low)).map { QRRenderer.halfBlocks($0) } ?? []
    }
}
