import DemoProvider
import DeviceFlow
import Foundation
import Testing
import TestSupport
import Store
@testable import Services
import SwitchboardCore

@Suite("Sign-in runs, end to end over loopback")
struct SignInRunTests {
    @Test("approved: a new account, active, announced on the bus; again: the same account")
    func newThenKnown() async throws {
        let rig = try await AppRig()
        let (_, first) = try await rig.signIn(as: "ada")
        #expect(first.outcome.name == "approved" && first.isNew)
        #expect(first.account?.name == "Ada Lovelace")
        #expect(first.account?.identities.first?.identity == Identity(provider: "demo", subject: "1815"))
        #expect(try rig.database.credential(for: Identity(provider: "demo", subject: "1815"))?.refreshToken != nil)
        let changes = rig.statusChanges.all
        #expect(changes.count == 1 && changes[0].reason == .signedIn(isNew: true) && changes[0].current.id == first.account?.id)
        let phases = rig.progress.all
        #expect(phases.first == .requestingCode)
        #expect(phases.last == .finished(first.outcome))

        _ = try rig.database.signOut(session: SessionKey("pts/1")!)
        let (_, second) = try await rig.signIn(as: "ada")
        #expect(!second.isNew && second.account?.id == first.account?.id)
        #expect(try rig.database.accounts().count == 1)
        await rig.stop()
    }

    @Test("link attaches another identity to the active account")
    func link() async throws {
        let rig = try await AppRig()
        let (_, ada) = try await rig.signIn(as: "ada")
        // A second provider entry pointing at the same demo server.
        let work = ProviderSettings(id: "work", kind: .oidc, clientID: "switchboard-demo", issuer: rig.base)
        let provider = try await ResolvedProvider.resolve(work, transport: rig.transport)
        let run = SignInRun(provider: provider, mode: .link, session: SessionKey("pts/1")!, database: rig.database, bus: rig.bus,
                            transport: rig.transport, clock: rig.clock)
        let code = try await run.requestCode()
        try await rig.server.approve(userCode: code.userCode, as: "ada")
        let report = try await run.finish()
        #expect(report.linked && report.account?.id == ada.account?.id)
        #expect(report.account?.providers == ["demo", "work"])
        await rig.stop()
    }

    @Test("conflict: an identity of another account while someone is active; switch resolves it")
    func conflict() async throws {
        let rig = try await AppRig()
        let (_, zoe) = try await rig.signIn(as: "zoe", session: SessionKey("pts/2")!)
        _ = try await rig.signIn(as: "ada")
        let (run, report) = try await rig.signIn(as: "zoe", mode: .link)
        let pending = try #require(report.conflict)
        #expect(pending.conflict.owner == zoe.account?.id)
        #expect(pending.conflict.sharedProviders == ["demo"] && pending.conflict.canMerge, "both have a demo identity, which the rule allows")
        let change = try run.resolve(pending, choosing: .switchAccount)
        #expect(change?.current.id == zoe.account?.id)
        #expect(rig.statusChanges.all.last?.current.id == zoe.account?.id)
        await rig.stop()
    }

    @Test("denied, expired and cancelled end as such and change nothing")
    func endings() async throws {
        let rig = try await AppRig()
        let provider = try await rig.providers.resolve("demo")
        func run() -> SignInRun {
            SignInRun(provider: provider, mode: .signIn, session: SessionKey("pts/1")!, database: rig.database, bus: rig.bus,
                      transport: rig.transport, clock: rig.clock)
        }
        let denied = run()
        try await rig.server.deny(userCode: try await denied.requestCode().userCode)
        #expect(try await denied.finish().outcome == .denied)
        let expired = run()
        try await rig.server.expire(userCode: try await expired.requestCode().userCode)
        #expect(try await expired.finish().outcome == .expired)
        let cancelled = run()
        _ = try await cancelled.requestCode()
        cancelled.cancel()
        #expect(try await cancelled.finish().outcome == .cancelled)
        #expect(try rig.database.accounts().isEmpty)
        #expect(rig.statusChanges.all.isEmpty)
        await rig.stop()
    }
}

@Suite("Credential checks and disconnect")
struct CredentialTests {
    @Test("an expired access token is refreshed and stored; the identity stays authorized")
    func refresh() async throws {
        let rig = try await AppRig()
        let (_, ada) = try await rig.signIn(as: "ada")
        let identity = try #require(ada.account?.identities.first?.identity)
        let before = try #require(try rig.database.credential(for: identity))
        rig.clock.advance(by: 7200)
        let reports = try await CredentialCheck(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock).run()
        #expect(reports.map(\.state) == [.authorized])
        let after = try #require(try rig.database.credential(for: identity))
        #expect(after.accessToken != before.accessToken && after.refreshToken == before.refreshToken)
        await rig.stop()
    }

    @Test("a revoked grant: the identity is revoked, the session signed out politely, and the bus says why")
    func revoked() async throws {
        let rig = try await AppRig()
        let (_, ada) = try await rig.signIn(as: "ada")
        let identity = try #require(ada.account?.identities.first?.identity)
        let tokens = try #require(try rig.database.credential(for: identity))
        // The person revokes the grant at the provider.
        try await TokenClient(client: ClientCredentials(clientID: "switchboard-demo"), transport: rig.transport)
            .revoke(tokens.refreshToken!, hint: "refresh_token", at: rig.base.appendingPathComponent("revoke"))
        let reports = try await CredentialCheck(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock).run()
        #expect(reports.map(\.state) == [.revoked])
        #expect(try rig.database.active(in: SessionKey("pts/1")!) == .anonymous)
        let last = try #require(rig.statusChanges.all.last)
        #expect(last.reason == .revoked(identity) && last.current == .anonymous)
        #expect(rig.identityChanges.all == [IdentityStateChanged(identity: identity, previous: .authorized, current: .revoked)])
        #expect(try rig.database.accounts().first?.identities.first?.state == .revoked)
        await rig.stop()
    }

    @Test("a person the provider forgot: notFound")
    func forgotten() async throws {
        let rig = try await AppRig()
        _ = try await rig.signIn(as: "grace")
        try await rig.server.forget(personID: "grace")
        let reports = try await CredentialCheck(database: rig.database, providers: rig.providers, bus: rig.bus, clock: rig.clock).run()
        #expect(reports.map(\.state) == [.notFound])
        await rig.stop()
    }

    @Test("disconnect forgets the identity and its tokens, then revokes its refresh token and its access token at the provider (RFC 7009)")
    func disconnect() async throws {
        let rig = try await AppRig()
        let (_, ada) = try await rig.signIn(as: "ada")
        let identity = try #require(ada.account?.identities.first?.identity)
        let tokens = try #require(try rig.database.credential(for: identity))
        let recording = RecordingTransport(rig.transport, clock: rig.clock)
        let providers = ProviderDirectory(configuration: rig.providers.configuration, transport: recording)
        let (result, revocation) = try await Disconnect(database: rig.database, providers: providers, bus: rig.bus)
            .run(identity, session: SessionKey("pts/1")!)
        #expect(revocation == .revoked(host: "127.0.0.1"))
        // The refresh token, then the access token: a server that does not cascade ends both.
        #expect(recording.urls.filter { $0.path.hasSuffix("/revoke") }.count == 2, "\(recording.urls)")
        #expect(result.accountRemoved && result.change.current == .anonymous)
        #expect(try rig.database.credential(for: identity) == nil)
        let refreshed = try await TokenClient(client: ClientCredentials(clientID: "switchboard-demo"), transport: rig.transport)
            .refresh(tokens, at: rig.base.appendingPathComponent("token"))
        #expect(refreshed == .revoked, "the provider no longer honours the refresh token")
        await rig.stop()
    }
}
