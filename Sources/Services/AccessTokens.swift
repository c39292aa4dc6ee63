import DeviceFlow
import Foundation
import Store
import Synchronization
import SwitchboardCore

/// An access token ready to hand to a tool.
public struct FreshToken: Sendable {
    /// Whose token it is.
    public let identity: Identity
    /// The token set the access token belongs to.
    public let tokens: TokenSet
    /// Whether this call refreshed it.
    public let refreshed: Bool
    /// Why the refresh's new id_token was not kept (it failed the checks a
    /// sign-in's passes, or names another person); nil when it was, or none came.
    public var idTokenRefused: String?

    public init(identity: Identity, tokens: TokenSet, refreshed: Bool, idTokenRefused: String? = nil) {
        self.identity = identity
        self.tokens = tokens
        self.refreshed = refreshed
        self.idTokenRefused = idTokenRefused
    }
}

/// Why no usable access token could be had.
public enum TokenFailure: Error, Sendable, CustomStringConvertible {
    /// Nothing is stored for the identity: sign in again.
    case noCredentials(Identity)
    /// The access token has run out and there is no refresh token.
    case expired(Identity)
    /// The provider refused the refresh (`invalid_grant`) although no other
    /// process had stored newer tokens: the grant is revoked. The identity
    /// is recorded as revoked (unless the caller records it); `signedOut`
    /// are the sessions that lost their account because of it.
    case revoked(Identity, signedOut: [UserStatusChanged], why: String = "revoked")
    /// The provider could not be reached, refused, or is not configured.
    case provider(Identity, FlowFailure)
    /// No id_token is stored for the identity, or the provider gave no new
    /// one when the stored one had run out (`refreshed`).
    case noIDToken(Identity, refreshed: Bool)
    /// The identity is recorded as revoked (or unknown to its provider):
    /// its stored token is dead, and only signing in again brings it back.
    case knownRevoked(Identity, CredentialState)
    /// The database could not be used.
    case store(StoreError)

    public var description: String {
        switch self {
        case .noCredentials(let identity): "no tokens are stored for \(identity); sign in again"
        case .expired(let identity): "the access token of \(identity) has expired and there is no refresh token; sign in again"
        case .revoked(let identity, _, let why): "\(identity.provider) refused to refresh the tokens of \(identity) (\(why)); sign in again"
        case .provider(let identity, let failure): "\(identity.provider): \(failure.description)"
        case .noIDToken(let identity, false): "no id_token is stored for \(identity) (\(identity.provider) may not be an OpenID Connect provider); sign in again"
        case .noIDToken(let identity, true): "\(identity.provider) gave no new id_token when the tokens of \(identity) were refreshed; sign in again"
        case .knownRevoked(let identity, let state):
            "\(identity) is recorded as \(state == .notFound ? "unknown to \(identity.provider)" : "revoked"), so its token is not handed out; "
                + "sign in again: switchboard sign-in \(identity.provider)"
        case .store(let error): error.description
        }
    }
}

/// Hands out access tokens that stay valid for a while, refreshing them
/// first when they would not.
///
/// Safe across processes: the refresh happens under the database's refresh
/// lock (so two processes never spend one refresh token), the new tokens are
/// stored only if the stored refresh token is still the one spent (compare
/// and swap), and a refused refresh is taken for a revocation only when the
/// store still holds the refresh token that was refused; if another writer
/// stored newer tokens meanwhile, those are used (refreshed again if still
/// needed) instead.
public struct AccessTokens: Sendable {
    /// Where the tokens are stored.
    public let database: AppDatabase
    /// The providers to refresh at.
    public let providers: ProviderDirectory
    /// Where a state a refresh changed (revoked, authorized again) is announced; nil for none.
    public let bus: NotificationBus?
    /// The time tokens are judged by.
    public let clock: any FlowClock
    /// Whether a revocation is recorded here (false: the caller records it,
    /// as a check does). A recorder also refuses an identity already
    /// recorded as revoked (`knownRevoked`), before its dead token is
    /// handed out; a check asks the provider again instead.
    public let recordsRevocation: Bool

    /// Hands out tokens from `database`, refreshing at `providers`.
    public init(
        database: AppDatabase, providers: ProviderDirectory, bus: NotificationBus?, clock: any FlowClock = SystemFlowClock(),
        recordsRevocation: Bool = true
    ) {
        self.database = database
        self.providers = providers
        self.bus = bus
        self.clock = clock
        self.recordsRevocation = recordsRevocation
    }

    /// How many times a refresh is tried again when other writers keep
    /// storing newer tokens under it.
    static let attempts = 5

    /// A fresh access token of each of `identities`, in order, as `token(for:minValid:)` gives it.
    public func accessTokens(of identities: [Identity], minValid: TimeInterval) async throws(TokenFailure) -> [(provider: ProviderID, token: String)] {
        var tokens: [(provider: ProviderID, token: String)] = []
        for identity in identities { tokens.append((identity.provider, try await token(for: identity, minValid: minValid).tokens.accessToken)) }
        return tokens
    }

    /// An access token of `identity` valid for at least `minValid` seconds
    /// when the provider allows that long, refreshing first when the stored
    /// one expires sooner. A token fresh from the provider is returned even
    /// if the provider gives it a shorter life.
    public func token(for identity: Identity, minValid: TimeInterval) async throws(TokenFailure) -> FreshToken {
        try await fresh(identity, minValid: minValid) { tokens, now in
            guard let expiresAt = tokens.expiresAt else { return false }
            return now.distance(to: expiresAt) < minValid
        }
    }

    /// The tokens of `identity` with an id_token valid for at least
    /// `minValid` seconds (by its own `exp`), refreshed first when the
    /// stored one expires sooner, has no readable `exp`, or is missing.
    /// Kubernetes' OpenID Connect sign-in checks id_tokens, not access tokens.
    public func idToken(for identity: Identity, minValid: TimeInterval) async throws(TokenFailure) -> FreshToken {
        let stale: @Sendable (TokenSet, Moment) -> Bool = { tokens, now in
            guard let expiry = tokens.idToken.flatMap(IDTokenExpiry.of) else { return true }
            return now.distance(to: Moment(secondsSince1970: expiry.timeIntervalSince1970)) < minValid
        }
        let fresh = try await fresh(identity, minValid: minValid, stale: stale)
        // The one before it stays, checked at its sign-in; run out, it is no use, and the refused one is never handed out.
        if let refused = fresh.idTokenRefused, stale(fresh.tokens, now) { throw .provider(identity, .unverifiable(refused)) }
        guard let idToken = fresh.tokens.idToken else { throw .noIDToken(identity, refreshed: fresh.refreshed) }
        // A refresh that brought no id_token keeps the old one, which has run out.
        if fresh.refreshed, stale(fresh.tokens, now), IDTokenExpiry.of(idToken).map({ $0 < clock.now() }) ?? false {
            throw .noIDToken(identity, refreshed: true)
        }
        return fresh
    }

    /// Marks the access token `rejected` of `identity` as run out, when it is
    /// still the one stored (a git server refused it), so that the next
    /// token handed out is refreshed first. Returns whether it was.
    public func forget(rejected: String, of identity: Identity) throws(TokenFailure) -> Bool {
        do { return try database.expireAccessToken(rejected, of: identity, at: clock.now()) } catch { throw .store(error) }
    }

    /// The stored tokens of `identity`, refreshed first when `stale` says
    /// they are (at the time given), under the refresh lock.
    private func fresh(
        _ identity: Identity, minValid: TimeInterval, stale: @Sendable (TokenSet, Moment) -> Bool
    ) async throws(TokenFailure) -> FreshToken {
        // One refresh of an identity at a time in this process: a kept refresh token is never spent twice.
        let turn = await UnsavedRefreshes.shared.turn(for: key(identity))
        defer { turn.end() }
        if let kept = try await unsaved(identity, stale: stale) { return kept }
        if recordsRevocation { try refuseKnownRevoked(identity) }
        let stored = try credential(identity)
        if !stale(stored, now) { return FreshToken(identity: identity, tokens: stored, refreshed: false) }
        // A refresh spends the refresh token: without a place to keep the new one, none is spent.
        if database.isReadOnly {
            throw .store(.unavailable(path: database.path, detail: "the tokens of \(identity) must be refreshed (they expire within "
                + "\(Int(minValid)) s), and the store is read-only: this process may not write the file or its folder, so the new "
                + "tokens could not be kept. Nothing was changed; run it as a user who may write the store"))
        }
        let lock: RefreshLock
        do { lock = try await database.lockRefreshes(of: identity) } catch { throw .store(error) }
        defer { lock.release() }
        // Another process may have refreshed while this one waited.
        var current = try credential(identity)
        if !stale(current, now) { return FreshToken(identity: identity, tokens: current, refreshed: false) }
        let provider: ResolvedProvider
        do { provider = try await providers.resolve(identity.provider) } catch { throw .provider(identity, error) }
        let client = provider.tokenClient(transport: providers.transport, clock: clock)
        for _ in 0..<Self.attempts {
            guard let spent = current.refreshToken else {
                if current.isExpired(at: now) { throw .expired(identity) }
                return FreshToken(identity: identity, tokens: current, refreshed: false)
            }
            let result: TokenClient.RefreshResult
            do { result = try await client.refresh(current, at: provider.endpoints.token) } catch {
                throw .provider(identity, error)
            }
            switch result {
            case .refreshed(let refreshed):
                let (fresh, refused) = await checkedIDToken(refreshed, previous: current, of: identity, at: provider)
                do {
                    // Stored only over the tokens it replaces; if another writer got in first, this
                    // token is still good to use, and theirs stays stored.
                    if try database.replaceCredential(fresh, for: identity, refreshedWith: spent, at: clock.now()) {
                        try markAuthorized(identity)
                    }
                } catch {
                    // The refresh token is spent: the new tokens are all there is. Kept here and handed
                    // out until the store takes them; never thrown away.
                    UnsavedRefreshes.shared.keep(UnsavedRefreshes.Refresh(tokens: fresh, spent: spent), for: key(identity))
                }
                return FreshToken(identity: identity, tokens: fresh, refreshed: true, idTokenRefused: refused)
            case .revoked(let why):
                let latest = try credential(identity)
                guard latest.refreshToken == spent else {
                    // Another writer stored newer tokens: the refusal was of a spent token, not a revocation.
                    current = latest
                    if !stale(latest, now) { return FreshToken(identity: identity, tokens: latest, refreshed: false) }
                    continue
                }
                // Newer tokens kept here, not yet stored, are the live ones: no revocation to record.
                if let kept = UnsavedRefreshes.shared.pending(for: key(identity)), !stale(kept.tokens, now) {
                    return FreshToken(identity: identity, tokens: kept.tokens, refreshed: false)
                }
                throw .revoked(identity, signedOut: recordsRevocation ? try recordRevoked(identity) : [], why: why)
            }
        }
        throw .provider(identity, .invalidResponse("the stored tokens kept changing while refreshing; try again"))
    }

    /// Throws `knownRevoked` for an identity recorded as revoked or unknown to its provider.
    private func refuseKnownRevoked(_ identity: Identity) throws(TokenFailure) {
        let known: LinkedIdentity?
        do { known = try database.linkedIdentity(identity) } catch { throw .store(error) }
        if let state = known?.state, state == .revoked || state == .notFound { throw .knownRevoked(identity, state) }
    }

    private var now: Moment { Moment(secondsSince1970: clock.now().timeIntervalSince1970) }

    /// `fresh` with its new id_token checked as a sign-in's is (signature,
    /// issuer, audience, times) and for the same person (OpenID Connect
    /// Core §12.2); one that fails, or cannot be checked (no signing keys
    /// known), is not kept: the one before it stays, and why is said.
    private func checkedIDToken(
        _ fresh: TokenSet, previous: TokenSet, of identity: Identity, at provider: ResolvedProvider
    ) async -> (TokenSet, refused: String?) {
        guard let idToken = fresh.idToken, idToken != previous.idToken else { return (fresh, nil) }
        var kept = fresh
        kept.idToken = previous.idToken
        guard provider.endpoints.jwks != nil, provider.endpoints.issuer != nil else {
            return (kept, "\(identity.provider) gave a new id_token, but its signing keys are not known to check it")
        }
        do {
            let found = try await provider.identityResolver(transport: providers.transport, clock: clock)
                .identity(for: TokenSet(accessToken: fresh.accessToken, idToken: idToken))
            guard found.identity == identity else {
                return (kept, "the id_token of the refresh names \(found.identity.description.displaySafe), not \(identity)")
            }
            return (fresh, nil)
        } catch {
            return (kept, "the id_token of the refresh failed its check: \(error.description)")
        }
    }

    private func key(_ identity: Identity) -> UnsavedRefreshes.Key { UnsavedRefreshes.Key(store: database.path, identity: identity) }

    /// Tokens an earlier refresh in this process got but could not store:
    /// stored now if the store takes them (then the store's tokens are read
    /// as usual: nil). While it still cannot, they are handed out; and when
    /// they are stale themselves, refreshed with their own refresh token
    /// (the stored one is spent: refused, it would read as a revocation)
    /// and the newer ones kept in their place.
    private func unsaved(_ identity: Identity, stale: @Sendable (TokenSet, Moment) -> Bool) async throws(TokenFailure) -> FreshToken? {
        let key = key(identity)
        guard let pending = UnsavedRefreshes.shared.pending(for: key) else { return nil }
        do {
            if try database.replaceCredential(pending.tokens, for: identity, refreshedWith: pending.spent, at: clock.now()) {
                try markAuthorized(identity)
            }
            UnsavedRefreshes.shared.stored(pending, for: key)
            return nil
        } catch {}
        if !stale(pending.tokens, now) { return FreshToken(identity: identity, tokens: pending.tokens, refreshed: false) }
        guard pending.tokens.refreshToken != nil else { throw .expired(identity) }
        let provider: ResolvedProvider
        do { provider = try await providers.resolve(identity.provider) } catch { throw .provider(identity, error) }
        let client = provider.tokenClient(transport: providers.transport, clock: clock)
        let result: TokenClient.RefreshResult
        do { result = try await client.refresh(pending.tokens, at: provider.endpoints.token) } catch { throw .provider(identity, error) }
        switch result {
        case .refreshed(let refreshed):
            let (fresh, refused) = await checkedIDToken(refreshed, previous: pending.tokens, of: identity, at: provider)
            // The first spent token stays the one the store must replace.
            UnsavedRefreshes.shared.keep(UnsavedRefreshes.Refresh(tokens: fresh, spent: pending.spent), for: key)
            return FreshToken(identity: identity, tokens: fresh, refreshed: true, idTokenRefused: refused)
        case .revoked:
            // Refused while the store cannot be told: said as the store's failure, recorded by nobody.
            throw .store(.unavailable(path: database.path, detail: "\(identity.provider) refused to refresh the tokens of \(identity), "
                + "and the store cannot be reached to say so; sign in again once it can"))
        }
    }

    private func credential(_ identity: Identity) throws(TokenFailure) -> TokenSet {
        let tokens: TokenSet?
        do { tokens = try database.credential(for: identity) } catch { throw .store(error) }
        guard let tokens else { throw .noCredentials(identity) }
        return tokens
    }

    /// A refresh worked: an identity recorded as expired or revoked is authorized again.
    private func markAuthorized(_ identity: Identity) throws(StoreError) {
        guard let known = try database.linkedIdentity(identity), known.state != .authorized else { return }
        publish(try database.recordCheck(identity, state: .authorized, at: clock.now()))
    }

    private func recordRevoked(_ identity: Identity) throws(TokenFailure) -> [UserStatusChanged] {
        do {
            let result = try database.recordCheck(identity, state: .revoked, at: clock.now())
            publish(result)
            return result.signedOut
        } catch { throw .store(error) }
    }

    private func publish(_ result: CredentialCheckResult) {
        if let change = result.stateChange { bus?.publish(change) }
        for change in result.signedOut { bus?.publish(change) }
    }
}

/// Tokens a refresh got that the store could not take (it was offline, or
/// busy past its deadline), kept in this process until it can: with a
/// provider that rotates refresh tokens, the stored refresh token is spent,
/// so these are the only live ones. Kept in memory only: secrets never go
/// to a file of their own.
public final class UnsavedRefreshes: Sendable {
    /// This process's.
    public static let shared = UnsavedRefreshes()

    /// Whose tokens, in which store.
    struct Key: Hashable, Sendable {
        let store: String
        let identity: Identity
    }

    /// The tokens got, and the refresh token the store's copy must still hold for them to replace it.
    struct Refresh: Sendable, Equatable {
        let tokens: TokenSet
        let spent: String
    }

    private let kept = Mutex<[Key: Refresh]>([:])
    /// Per key: whether a refresh is under way, and who waits for their turn.
    private let turns = Mutex<[Key: [CheckedContinuation<Void, Never>]]>([:])

    /// The identity's turn to refresh in this process: waits while another call has it. `end()` it.
    func turn(for key: Key) async -> Turn {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = turns.withLock { turns -> Bool in
                if turns[key] == nil {
                    turns[key] = []
                    return true
                }
                turns[key]?.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        return Turn(key: key, owner: self)
    }

    /// Hands the turn to the next waiting call, if any.
    fileprivate func endTurn(_ key: Key) {
        let next = turns.withLock { turns -> CheckedContinuation<Void, Never>? in
            guard var waiting = turns[key], !waiting.isEmpty else {
                turns[key] = nil
                return nil
            }
            let next = waiting.removeFirst()
            turns[key] = waiting
            return next
        }
        next?.resume()
    }

    /// A call's turn to refresh an identity.
    struct Turn: Sendable {
        let key: Key
        let owner: UnsavedRefreshes
        func end() { owner.endTurn(key) }
    }

    /// The identities whose new tokens this process still holds unstored, in `store`.
    public func unsaved(in store: String) -> [Identity] {
        kept.withLock { $0.keys.filter { $0.store == store }.map(\.identity) }
    }

    func keep(_ refresh: Refresh, for key: Key) { kept.withLock { $0[key] = refresh } }

    func pending(for key: Key) -> Refresh? { kept.withLock { $0[key] } }

    /// `refresh` reached the store: forgotten here, unless a newer one took its place meanwhile.
    func stored(_ refresh: Refresh, for key: Key) {
        kept.withLock { if $0[key] == refresh { $0[key] = nil } }
    }
}
