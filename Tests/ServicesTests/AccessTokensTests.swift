import DemoProvider
import DeviceFlow
import Foundation
import Synchronization
import Testing
import TestSupport
import Store
import Services
import SwitchboardCore

/// Passes requests on; before the first refresh request goes out, runs
/// `interpose` once (another writer getting in first).
private final class InterposingTransport: HTTPTransport, Sendable {
    let inner: any HTTPTransport
    let interpose: @Sendable () async throws -> Void
    private let done = Atomic<Bool>(false)
    private let refreshes = Atomic<Int>(0)

    init(_ inner: any HTTPTransport, interpose: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.interpose = interpose
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if body.contains("grant_type=refresh_token") {
            refreshes.add(1, ordering: .relaxed)
            if !done.exchange(true, ordering: .relaxed) {
                do { try await interpose() } catch { throw .cancelled }
            }
        }
        return try await inner.send(request)
    }

    /// Refresh requests this transport was asked to send (not counting the interposed one's).
    var refreshCount: Int { refreshes.load(ordering: .relaxed) }
}

@Suite("Access tokens: refreshed when needed, safely across writers")
struct AccessTokensTests {
    static let ada = Identity(provider: "demo", subject: "1815")

    @Test("a token valid long enough is handed out as stored; one expiring sooner is refreshed and stored")
    func refreshWhenNeeded() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        let stored = try #require(try rig.database.credential(for: Self.ada))
        let tokens = AccessTokens(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock)
        let kept = try await tokens.token(for: Self.ada, minValid: 60)
        #expect(!kept.refreshed && kept.tokens == stored)
        let fresh = try await tokens.token(for: Self.ada, minValid: 7200)
        #expect(fresh.refreshed && fresh.tokens.accessToken != stored.accessToken)
        #expect(try rig.database.credential(for: Self.ada)?.accessToken == fresh.tokens.accessToken)
        await rig.stop()
    }

    @Test("a refusal of a refresh token another writer already spent is not a revocation: its newer tokens are used and refreshed again")
    func anotherWriterGotInFirst() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        await rig.server.updateSettings(DemoSettings(interval: 1, rotateRefreshTokens: true))
        let original = try #require(try rig.database.credential(for: Self.ada))
        let provider = try await rig.providers.resolve("demo")
        let written = Mutex<TokenSet?>(nil)
        // The other writer: refreshes with the stored refresh token and stores the result, after this
        // one has read the store and before its own refresh reaches the provider.
        let transport = InterposingTransport(rig.transport) { [database = rig.database, inner = rig.transport, clock = rig.clock] in
            guard case .refreshed(let theirs) = try await provider.tokenClient(transport: inner, clock: clock).refresh(original, at: provider.endpoints.token)
            else { throw TransportError.cancelled }
            try database.saveCredential(theirs, for: Self.ada)
            written.withLock { $0 = theirs }
        }
        let providers = ProviderDirectory(configuration: ProviderConfiguration(providers: [.demo(issuer: rig.base)]), transport: transport)
        let tokens = AccessTokens(database: rig.database, providers: providers, bus: rig.bus, clock: rig.clock)
        let fresh = try await tokens.token(for: Self.ada, minValid: 7200)

        let theirs = try #require(written.withLock { $0 })
        #expect(theirs.refreshToken != original.refreshToken)
        #expect(transport.refreshCount == 2)  // the refused one, then one with the other writer's refresh token
        #expect(fresh.refreshed)
        #expect(fresh.tokens.refreshToken != theirs.refreshToken && fresh.tokens.refreshToken != original.refreshToken)
        #expect(try rig.database.credential(for: Self.ada)?.refreshToken == fresh.tokens.refreshToken)
        #expect(try rig.database.accounts().first?.identities.first?.state == .authorized)
        #expect(rig.identityChanges.all.isEmpty)
        await rig.stop()
    }

    @Test("a refusal of the stored refresh token is a revocation: recorded, announced, and the session signed out")
    func revoked() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        try await rig.server.forget(personID: "ada")
        let tokens = AccessTokens(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock)
        await #expect {
            try await tokens.token(for: Self.ada, minValid: 7200)
        } throws: { error in
            guard case .revoked(let identity, let signedOut, _) = error as? TokenFailure else { return false }
            return identity == Self.ada && signedOut.map(\.session) == [SessionKey("pts/1")!]
        }
        #expect(try rig.database.accounts().first?.identities.first?.state == .revoked)
        #expect(rig.identityChanges.all.map(\.current) == [.revoked])
        #expect(try rig.database.active(in: SessionKey("pts/1")!) == .anonymous)
        await rig.stop()
    }

    @Test("a credential check and token requests refreshing at once, with rotating refresh tokens: all refresh in turn, none records revoked")
    func checkAndTokenAtOnce() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        await rig.server.updateSettings(DemoSettings(interval: 1, rotateRefreshTokens: true))
        rig.clock.advance(by: 3600)  // the stored access token has run out
        let tokens = AccessTokens(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock)
        let check = CredentialCheck(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock)
        async let reports = check.run()
        async let first = tokens.token(for: Self.ada, minValid: 7200)
        async let second = tokens.token(for: Self.ada, minValid: 7200)
        let (checked, one, two) = try await (reports, first, second)
        #expect(checked.map(\.state) == [.authorized])
        #expect(one.refreshed && two.refreshed && one.tokens.refreshToken != two.tokens.refreshToken)
        #expect(try rig.database.accounts().first?.identities.first?.state == .authorized)
        #expect(rig.identityChanges.all.isEmpty)
        await rig.stop()
    }

    @Test("the store swaps tokens only over the refresh token that was spent")
    func compareAndSwap() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        let stored = try #require(try rig.database.credential(for: Self.ada))
        let newer = TokenSet(accessToken: "a2", refreshToken: "r2")
        #expect(try !rig.database.replaceCredential(newer, for: Self.ada, refreshedWith: "not-the-stored-one"))
        #expect(try rig.database.credential(for: Self.ada) == stored)
        #expect(try rig.database.replaceCredential(newer, for: Self.ada, refreshedWith: try #require(stored.refreshToken)))
        #expect(try rig.database.credential(for: Self.ada) == newer)
        #expect(try !rig.database.replaceCredential(stored, for: Identity(provider: "demo", subject: "nobody"), refreshedWith: "r2"))
        await rig.stop()
    }
}

/// A refresh whose new tokens the store cannot take: with a provider that
/// rotates refresh tokens, the stored refresh token is spent, so the new
/// tokens are the only live ones.
@Suite("Access tokens: rotated tokens kept through an outage")
struct UnsavedRefreshTests {
    @Test("new tokens whose write fails are handed out, refreshed with their own refresh token, and written once the store takes them; the spent stored one never reads as a revocation")
    func keptThroughOutage() async throws {
        let rig = try await AppRig(interval: 1)
        _ = try await rig.signIn(as: "ada")
        await rig.server.updateSettings(DemoSettings(interval: 1, rotateRefreshTokens: true))
        let original = try #require(try rig.database.credential(for: AccessTokensTests.ada))
        // The same file, through a double whose writes can be made to fail.
        let (database, gate) = try AppDatabase.gated(path: rig.database.path, pinRounds: rig.database.pinRounds)
        let tokens = AccessTokens(database: database, providers: rig.providers, bus: rig.bus, clock: rig.clock)
        gate.failWrites(.offline(server: database.path, detail: "the server does not answer"))

        // The refresh works; its write does not: the new token is handed out all the same.
        let first = try await tokens.token(for: AccessTokensTests.ada, minValid: 7200)
        #expect(first.refreshed && first.tokens.refreshToken != original.refreshToken)
        #expect(try rig.database.credential(for: AccessTokensTests.ada)?.refreshToken == original.refreshToken, "the store still holds the spent one")
        // Asked again: the kept tokens, not the store's.
        let again = try await tokens.token(for: AccessTokensTests.ada, minValid: 60)
        #expect(!again.refreshed && again.tokens == first.tokens)
        // Stale again while the store is still away: refreshed with the kept refresh token (the stored one would be refused).
        let second = try await tokens.token(for: AccessTokensTests.ada, minValid: 7200)
        #expect(second.refreshed && second.tokens.refreshToken != first.tokens.refreshToken)

        // The store is back: the kept tokens are written, and the store's are handed out from then on.
        gate.failWrites(nil)
        let after = try await tokens.token(for: AccessTokensTests.ada, minValid: 60)
        #expect(after.tokens == second.tokens)
        #expect(try rig.database.credential(for: AccessTokensTests.ada)?.refreshToken == second.tokens.refreshToken)
        #expect(try rig.database.accounts().first?.identities.first?.state == .authorized)
        #expect(rig.identityChanges.all.isEmpty, "nothing was read as a revocation")
        await rig.stop()
    }
}

/// The token endpoint's answer to a refresh, with its id_token replaced.
private struct SwappedIDToken: HTTPTransport {
    let inner: any HTTPTransport
    let idToken: String

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await inner.send(request)
        guard request.url.path.hasSuffix("/token"), String(decoding: request.body ?? Data(), as: UTF8.self).contains("grant_type=refresh_token"),
            var object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any], object["id_token"] != nil
        else { return response }
        object["id_token"] = idToken
        return HTTPResponse(status: response.status, headers: response.headers, body: try! JSONSerialization.data(withJSONObject: object))
    }
}

@Suite("a refresh's id_token, checked as a sign-in's")
struct RefreshedIDTokenTests {
    @Test("a refreshed id_token naming another person, or badly signed, is not kept nor handed out; the one before stays", arguments: [true, false])
    func refused(anotherPerson: Bool) async throws {
        let rig = try await AppRig(interval: 1)
        defer { Task { await rig.stop() } }
        let (_, ada) = try await rig.signIn(as: "ada")
        let (_, grace) = try await rig.signIn(as: "grace", session: SessionKey("pts/2")!)
        let adaIdentity = try #require(ada.account?.identities.first?.identity)
        let graceIdentity = try #require(grace.account?.identities.first?.identity)
        let before = try #require(try rig.database.credential(for: adaIdentity)?.idToken)
        let graces = try #require(try rig.database.credential(for: graceIdentity)?.idToken)
        // Grace's, signed by the provider but about her; or Ada's own with its signature broken.
        let swapped = anotherPerson ? graces : String(before.dropLast(4)) + (before.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let providers = ProviderDirectory(configuration: rig.providers.configuration, transport: SwappedIDToken(inner: rig.transport, idToken: swapped))
        let tokens = AccessTokens(database: rig.database, providers: providers, bus: rig.bus, clock: rig.clock)
        // Past the id_token's lifetime: a refresh is needed, and what it brings is refused.
        await #expect {
            try await tokens.idToken(for: adaIdentity, minValid: 7 * 86_400)
        } throws: { error in
            let said = "\(error)"
            return anotherPerson ? said.contains("names \(graceIdentity)") : said.contains("failed its check")
        }
        #expect(try rig.database.credential(for: adaIdentity)?.idToken == before, "the one before stays stored")
        // The access token the refresh brought is good, and kept.
        let access = try await tokens.token(for: adaIdentity, minValid: 60)
        #expect(access.tokens.idToken == before)
    }
}
