import DeviceFlow
import Foundation
import Store
import SwitchboardCore

/// What happened at the provider when disconnecting.
public enum Revocation: Hashable, Sendable {
    /// The provider revoked the tokens (RFC 7009): the refresh token, then the access token.
    case revoked(host: String)
    /// The provider offers no revocation; revoke by hand there, if a page is known.
    case notOffered(manual: URL?)
    /// Nothing to revoke: no tokens were stored.
    case nothingStored
    /// Asking failed; the identity was forgotten here all the same.
    case failed(String, manual: URL?)

    /// What it means, as a sentence for a person, naming `provider`; nil
    /// when there is nothing to say (nothing was stored).
    public func sentence(provider: ProviderID) -> String? {
        let revokeThere = { (manual: URL?) in manual.map { "; revoke it at \($0.absoluteString.displaySafe)" } ?? "" }
        return switch self {
        case .revoked(let host): "\(host.displaySafe) revoked its access."
        case .nothingStored: nil
        case .notOffered(let manual): "\(provider) offers no way to revoke access from here\(revokeThere(manual))."
        case .failed(let detail, let manual): "Could not revoke access at \(provider): \(detail.displaySafe)\(revokeThere(manual))."
        }
    }
}

/// Disconnects an identity: forget it here (one transaction, which an
/// account with a PIN allows only with its PIN or the operator PIN),
/// announce it, then revoke the forgotten tokens at the provider where it can.
public struct Disconnect: Sendable {
    public let database: AppDatabase
    public let providers: ProviderDirectory
    public let bus: NotificationBus?

    public init(database: AppDatabase, providers: ProviderDirectory, bus: NotificationBus?) {
        self.database = database
        self.providers = providers
        self.bus = bus
    }

    public func run(
        _ identity: Identity, session: SessionKey, pin: PINProof? = nil, at date: Date = Date()
    ) async throws(StoreError) -> (DisconnectResult, Revocation) {
        let result = announce(try database.disconnect(identity, session: session, pin: pin, at: date))
        return (result, await revoke(result))
    }

    /// Forgets `identity` of `account` for the operator at `operatorSession`,
    /// whose PIN the store checks in the same transaction, whatever the
    /// account, and announces it; `revoke(_:)` then asks its provider.
    public func forget(
        _ identity: Identity, of account: AccountID, byOperatorAt operatorSession: SessionKey, operatorPIN: String, at date: Date = Date()
    ) throws(StoreError) -> DisconnectResult {
        announce(try database.disconnect(identity, of: account, byOperatorAt: operatorSession, operatorPIN: operatorPIN, at: date))
    }

    /// Asks the provider to revoke the tokens a disconnect forgot.
    public func revoke(_ result: DisconnectResult) async -> Revocation {
        await revoke(result.identity, tokens: result.forgotten)
    }

    /// Tells the bus what a disconnect changed.
    private func announce(_ result: DisconnectResult) -> DisconnectResult {
        // The identity's owner too: it need not be the one active here.
        var changed = [result.change.previous.id, result.change.current.id].compactMap { $0 }
        if !changed.contains(result.owner) { changed.append(result.owner) }
        bus?.publish(AccountsChanged(accounts: changed))
        if result.change.previous != result.change.current { bus?.publish(result.change) }
        for change in result.signedOut { bus?.publish(change) }
        return result
    }

    private func revoke(_ identity: Identity, tokens: TokenSet?) async -> Revocation {
        guard let tokens else { return .nothingStored }
        let manual = providers.configuration.provider(identity.provider)?.template.manualRevocation
        do {
            let provider = try await providers.resolve(identity.provider)
            guard let endpoint = provider.endpoints.revocation else { return .notOffered(manual: manual) }
            let client = provider.tokenClient(transport: providers.transport)
            // The refresh token first (a server that cascades ends the access token with it), then the access
            // token itself: a server that does not cascade (RFC 7009 §2.1 only says SHOULD) would honour it until it expires.
            if let refreshToken = tokens.refreshToken {
                try await client.revoke(refreshToken, hint: "refresh_token", at: endpoint)
                do {
                    try await client.revoke(tokens.accessToken, hint: "access_token", at: endpoint)
                } catch {
                    return .failed("the refresh token was revoked, but not the access token (\(error.description)); it works until it expires", manual: manual)
                }
            } else {
                try await client.revoke(tokens.accessToken, hint: "access_token", at: endpoint)
            }
            return .revoked(host: endpoint.host ?? endpoint.absoluteString)
        } catch {
            return .failed(error.description, manual: manual)
        }
    }
}
