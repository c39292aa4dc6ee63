import DeviceFlow
import Foundation
import Store
import SwitchboardCore

/// What re-checking one identity found.
public struct CheckReport: Sendable {
    public let identity: Identity
    public let account: AccountID
    /// The state now, or nil when the provider could not be asked.
    public let state: CredentialState?
    /// Why the state could not be learned, when it could not.
    public let problem: String?
    /// Sessions signed out because of this check.
    public let signedOut: [UserStatusChanged]
}

/// Re-checks every stored credential: refresh when expired
/// (`invalid_grant` means revoked), else ask userinfo. Results go to the
/// store and, as facts, onto the bus.
public struct CredentialCheck: Sendable {
    public let database: AppDatabase
    public let providers: ProviderDirectory
    public let bus: NotificationBus?
    public let clock: any FlowClock

    public init(database: AppDatabase, providers: ProviderDirectory, bus: NotificationBus?, clock: any FlowClock = SystemFlowClock()) {
        self.database = database
        self.providers = providers
        self.bus = bus
        self.clock = clock
    }

    /// Checks every stored credential, or only those of `account`.
    public func run(only account: AccountID? = nil) async throws(StoreError) -> [CheckReport] {
        var reports: [CheckReport] = []
        // One account's: read by its id, not found among everyone's.
        let identities: [(LinkedIdentity, AccountID)]
        if let account {
            identities = try database.identitiesWithCredentials(of: account).map { ($0, account) }
        } else {
            identities = try database.identitiesWithCredentials().map { ($0.identity, $0.account) }
        }
        for (linked, owner) in identities {
            reports.append(try await check(linked.identity, account: owner))
        }
        return reports
    }

    private func check(_ identity: Identity, account: AccountID) async throws(StoreError) -> CheckReport {
        guard let tokens = try database.credential(for: identity) else {
            return CheckReport(identity: identity, account: account, state: nil, problem: "no stored credentials", signedOut: [])
        }
        let state: CredentialState
        do {
            state = try await probe(identity, tokens)
        } catch {
            return CheckReport(identity: identity, account: account, state: nil, problem: error.description, signedOut: [])
        }
        let result = try database.recordCheck(identity, state: state, at: clock.now())
        if let change = result.stateChange { bus?.publish(change) }
        for change in result.signedOut { bus?.publish(change) }
        return CheckReport(identity: identity, account: account, state: state, problem: nil, signedOut: result.signedOut)
    }

    private func probe(_ identity: Identity, _ tokens: TokenSet) async throws(FlowFailure) -> CredentialState {
        let provider = try await providers.resolve(identity.provider)
        var tokens = tokens
        if tokens.isExpired(at: Moment(secondsSince1970: clock.now().timeIntervalSince1970)) {
            // Refreshed as `switchboard token` refreshes: under the refresh lock, stored by compare and swap.
            let refresher = AccessTokens(database: database, providers: providers, bus: bus, clock: clock, recordsRevocation: false)
            do { tokens = try await refresher.token(for: identity, minValid: 30).tokens } catch {
                switch error {
                case .revoked, .expired, .knownRevoked: return .revoked
                case .provider(_, let failure): throw failure
                case .noCredentials: throw .configuration("no stored credentials")
                case .noIDToken: throw .configuration(error.description)
                case .store(let failure): throw .configuration(failure.description)
                }
            }
        }
        return try await provider.identityResolver(transport: providers.transport, clock: clock).check(tokens)
    }
}
