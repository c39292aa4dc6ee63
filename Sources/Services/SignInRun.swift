import DeviceFlow
import Foundation
import Store
import SwitchboardCore

/// How a sign-in ended, with what the screens need to tell the person.
public struct SignInReport: Sendable {
    public let outcome: SignInOutcome
    /// The account now active (approved) or involved.
    public let account: Account?
    public let isNew: Bool
    /// True when the identity was attached to the active account.
    public let linked: Bool
    /// Set when the identity belongs to another account: ask, then `resolve`.
    public let conflict: PendingConflict?
    /// Other accounts whose verified email matches: a hint only.
    public let possibleMatches: [AccountID]
    /// Set when the identity's account has a PIN: the sign-in is stored but
    /// nobody was made active; a switch with the PIN finishes it. Says
    /// whether the PIN is needed or locked out.
    public var needsPIN: StoreError? = nil

    /// A report as a sign-in makes one (and tests of what is said of it).
    public init(
        outcome: SignInOutcome, account: Account?, isNew: Bool, linked: Bool, conflict: PendingConflict?, possibleMatches: [AccountID],
        needsPIN: StoreError? = nil
    ) {
        self.outcome = outcome
        self.account = account
        self.isNew = isNew
        self.linked = linked
        self.conflict = conflict
        self.possibleMatches = possibleMatches
        self.needsPIN = needsPIN
    }
}

extension SignInReport {
    /// The report once a conflict was answered: the account now active.
    public func resolved(to account: Account?) -> SignInReport {
        SignInReport(outcome: outcome, account: account ?? self.account, isNew: false, linked: false, conflict: nil,
                     possibleMatches: possibleMatches)
    }
}

/// A conflict waiting for the person's choice, holding what `resolve` needs.
public struct PendingConflict: Sendable {
    public let conflict: AuthConflict
    public let identity: LinkedIdentity
    let tokens: TokenSet
}

/// One sign-in, start to end: ask for a code, poll, find out who it is,
/// apply it to the store, and announce it on the bus. Single-use.
public final class SignInRun: Sendable {
    public let provider: ResolvedProvider
    public let mode: AuthMode
    public let session: SessionKey
    private let database: AppDatabase
    private let bus: NotificationBus?
    private let flow: DeviceFlow
    private let resolver: IdentityResolver
    private let trace: FlowTrace?

    /// With `trace`, every exchange of the run (and the id_token's checked
    /// claims) is recorded there as it happens.
    public init(
        provider: ResolvedProvider, mode: AuthMode, session: SessionKey, database: AppDatabase, bus: NotificationBus?,
        transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock(), trace: FlowTrace? = nil
    ) {
        self.provider = provider
        self.mode = mode
        self.session = session
        self.database = database
        self.bus = bus
        self.trace = trace
        let transport = trace.map { TracingTransport(transport, trace: $0) } ?? transport
        flow = provider.makeFlow(transport: transport, clock: clock)
        resolver = provider.identityResolver(transport: transport, clock: clock, trace: trace)
    }

    /// Asks the provider for the code to show.
    public func requestCode() async throws(FlowFailure) -> DeviceAuthorization {
        publish(.requestingCode)
        let authorization = try await flow.requestCode()
        publish(.waitingForApproval(
            userCode: authorization.userCode, verificationURI: authorization.verificationURI.absoluteString,
            expiresInSeconds: authorization.expiresIn))
        return authorization
    }

    /// Waits for the person, then applies the result. Store failures are
    /// thrown; every other ending is an outcome.
    public func finish(onEvent: @escaping @Sendable (PollEvent) -> Void = { _ in }) async throws(StoreError) -> SignInReport {
        let report: SignInReport
        switch await flow.waitForApproval(onEvent: { [weak self] event in
            onEvent(event)
            switch event {
            case .polling(let attempt): self?.publish(.polling(attempt: attempt))
            case .slowedDown(let interval): self?.publish(.slowedDown(intervalSeconds: interval))
            case .retrying: break
            }
        }) {
        case .approved(let tokens):
            do {
                report = try apply(try await resolver.identity(for: tokens), tokens: tokens)
            } catch let error as StoreError {
                throw error
            } catch {
                report = SignInRun.ended(Self.outcome(for: error as? FlowFailure ?? .invalidResponse("\(error)")))
            }
        case .denied: report = SignInRun.ended(.denied)
        case .expired:
            trace?.recordExpiry()
            report = SignInRun.ended(.expired)
        case .cancelled: report = SignInRun.ended(.cancelled)
        case .failed(let failure): report = SignInRun.ended(Self.outcome(for: failure))
        }
        publish(.finished(report.outcome))
        return report
    }

    /// Ends the sign-in now; `finish` returns `cancelled`.
    public func cancel() { flow.cancel() }

    /// Carries out the person's answer to a conflict.
    public func resolve(_ pending: PendingConflict, choosing choice: ConflictChoice) throws(StoreError) -> UserStatusChanged? {
        let change = try database.resolve(pending.conflict, choosing: choice, identity: pending.identity, session: session, tokens: pending.tokens)
        if let change {
            bus?.publish(change)
            bus?.publish(AccountsChanged(accounts: [pending.conflict.active, pending.conflict.owner]))
        }
        return change
    }

    private func apply(_ identity: LinkedIdentity, tokens: TokenSet) throws(StoreError) -> SignInReport {
        switch try database.signIn(identity, mode: mode, session: session, tokens: tokens) {
        case .completed(let account, let isNew, let linked, let change, let matches):
            bus?.publish(AccountsChanged(accounts: [account.id]))
            if change.previous != change.current || linked { bus?.publish(change) }
            return SignInReport(outcome: .approved(account.id, isNew: isNew), account: account, isNew: isNew, linked: linked,
                                conflict: nil, possibleMatches: matches)
        case .conflict(let conflict, let matches):
            return SignInReport(outcome: .approved(conflict.owner, isNew: false), account: try database.account(conflict.owner),
                                isNew: false, linked: false,
                                conflict: PendingConflict(conflict: conflict, identity: identity, tokens: tokens),
                                possibleMatches: matches)
        case .needsPIN(let id, let refusal):
            bus?.publish(AccountsChanged(accounts: [id]))
            return SignInReport(outcome: .approved(id, isNew: false), account: try database.account(id), isNew: false, linked: false,
                                conflict: nil, possibleMatches: [], needsPIN: refusal)
        case .refused(let refusal):
            return Self.ended(.invalidAccount(refusal.description))
        }
    }

    private func publish(_ phase: SignInProgress.Phase) {
        bus?.publish(SignInProgress(provider: provider.id, phase: phase))
    }

    /// A report for a sign-in that ended without an identity.
    public static func ended(_ outcome: SignInOutcome) -> SignInReport {
        SignInReport(outcome: outcome, account: nil, isNew: false, linked: false, conflict: nil, possibleMatches: [])
    }

    /// The outcome a flow failure means for the person.
    public static func outcome(for failure: FlowFailure) -> SignInOutcome {
        switch failure {
        case .cancelled: .cancelled
        case .offline(let detail): .offline(detail)
        case .unverifiable(let detail): .invalidAccount(detail)
        case .provider(let error) where error.code == "access_denied": .denied
        case .provider(let error) where error.code == "expired_token": .expired
        case .provider, .invalidResponse, .configuration: .providerError(failure.description)
        }
    }
}
