import DemoProvider
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore

/// A store, a bus that records what it carries, and a demo provider, all on one manual clock.
public final class AppRig: @unchecked Sendable {
    public let clock: ManualClock
    public let folder = TemporaryFolder()
    public let database: AppDatabase
    public let bus = NotificationBus()
    public let server: DemoServer
    public let base: URL
    public let transport: URLSessionTransport
    public let providers: ProviderDirectory
    public let statusChanges = Recorder<UserStatusChanged>()
    public let progress = Recorder<SignInProgress.Phase>()
    public let identityChanges = Recorder<IdentityStateChanged>()
    private var subscriptions: [Subscription] = []

    /// `start` is where the manual clock begins; a rig whose sign-ins run on
    /// the system clock starts it now, as the id_token's `iat` must not be
    /// in that clock's future.
    public init(interval: Int = 5, start: Date = Date(timeIntervalSince1970: 1_800_000_000)) async throws {
        clock = ManualClock(start)
        database = try AppDatabase(testing: folder.file("switchboard.sqlite"))
        let clock = clock
        server = DemoServer(settings: DemoSettings(interval: interval), now: { clock.now() })
        base = try await server.start(port: 0)
        transport = URLSessionTransport(timeout: 5)
        providers = ProviderDirectory(configuration: ProviderConfiguration(providers: [.demo(issuer: base)]), transport: transport)
        subscriptions = [
            bus.subscribe(UserStatusChanged.self, on: .inline) { [statusChanges] in statusChanges.add($0) },
            bus.subscribe(SignInProgress.self, on: .inline) { [progress] in progress.add($0.phase) },
            bus.subscribe(IdentityStateChanged.self, on: .inline) { [identityChanges] in identityChanges.add($0) },
        ]
    }

    deinit { folder.remove() }

    /// Signs in as a demo person: the whole run, approved on the server.
    public func signIn(as person: String, mode: AuthMode = .signIn, session: SessionKey = SessionKey("pts/1")!) async throws -> (SignInRun, SignInReport) {
        let run = SignInRun(provider: try await providers.resolve("demo"), mode: mode, session: session, database: database,
                            bus: bus, transport: transport, clock: clock)
        let code = try await run.requestCode()
        try await server.approve(userCode: code.userCode, as: person)
        return (run, try await run.finish())
    }

    public func stop() async { await server.stop() }
}
