import Foundation

/// An embedded OAuth 2.0 Device Authorization Grant (RFC 8628) and OpenID Connect
/// provider on loopback, so demos and tests of Switchboard work offline.
///
/// Device codes, tokens and forgotten people live as long as this object, across
/// `stop()`/`start()`; the ID-token signing key is generated at each start.
public final class DemoServer: Sendable {
    /// The demo people, in display order.
    public static let people: [DemoPerson] = DemoPerson.cast

    private let store: CodeStore
    private let lifecycle = ServerLifecycle()

    /// Creates a stopped server.
    /// - Parameters:
    ///   - settings: The initial switches; change them later with ``updateSettings(_:)``.
    ///   - now: The clock for expiry, token lifetimes and rate limiting.
    public init(settings: DemoSettings = DemoSettings(), now: @escaping @Sendable () -> Date = { Date() }) {
        store = CodeStore(settings: settings, now: now)
    }

    /// Starts listening; returns the base URL (also the OIDC issuer), e.g. `http://127.0.0.1:8628`.
    /// When `port` is taken and `fallbackToFreePort` is true, binds a free port instead.
    /// Calling it while running returns the current base URL.
    /// - Throws: ``DemoError/cannotBind(_:)``.
    public func start(host: String = "127.0.0.1", port: UInt16 = 8628, fallbackToFreePort: Bool = true) async throws -> URL {
        try await lifecycle.start(host: host, port: port, fallbackToFreePort: fallbackToFreePort, publicAccess: nil, store: store)
    }

    /// Starts listening on 127.0.0.1 and, with `publicAccess`, on its
    /// address too (at the same port); the pages people open are announced
    /// at its URL. Returns the loopback base URL, the OIDC issuer, which
    /// clients keep using.
    /// - Throws: ``DemoError/cannotBind(_:)``, naming the address that failed.
    public func start(port: UInt16 = 8628, fallbackToFreePort: Bool = true, publicAccess: PublicAccess?) async throws -> URL {
        try await lifecycle.start(host: "127.0.0.1", port: port, fallbackToFreePort: fallbackToFreePort, publicAccess: publicAccess, store: store)
    }

    /// Stops listening. Does nothing when not running.
    public func stop() async {
        await lifecycle.stop()
    }

    /// The base URL while running, otherwise nil.
    public var baseURL: URL? {
        get async { await lifecycle.baseURL }
    }

    /// The base URL of the pages people open (the approval page), while
    /// running: the public one when started with ``PublicAccess``, else
    /// ``baseURL``.
    public var publicURL: URL? {
        get async { await lifecycle.publicURL }
    }

    /// The current switches.
    public var settings: DemoSettings {
        get async { await store.settings }
    }

    /// Approves the device code a person would type as `userCode` (any case, dash optional),
    /// signing in `personID` (an id or a full name). With ``DemoSettings/denyAll`` it denies instead.
    /// Wrong codes count towards the rate limit, as on the approval page (all
    /// calls of this method count as one client).
    public func approve(userCode: String, as personID: String) async throws {
        do {
            _ = try await store.decide(userCode: userCode, person: personID, deny: false, client: "in-process")
        } catch {
            throw error.demoError
        }
    }

    /// Denies the device code for `userCode`.
    public func deny(userCode: String) async throws {
        do {
            _ = try await store.decide(userCode: userCode, person: nil, deny: true, client: "in-process")
        } catch {
            throw error.demoError
        }
    }

    /// Makes a pending code expire now: the next poll answers `expired_token`.
    public func expire(userCode: String) async throws {
        do {
            try await store.expire(userCode: userCode)
        } catch {
            throw error.demoError
        }
    }

    /// The provider no longer knows this person (id or full name): userinfo answers 404,
    /// refreshing answers `invalid_grant`, and they cannot approve codes until a new server is made.
    public func forget(personID: String) async throws {
        do {
            try await store.forget(person: personID)
        } catch {
            throw error.demoError
        }
    }

    /// Replaces the switches; affects device codes issued afterwards.
    public func updateSettings(_ settings: DemoSettings) async {
        await store.updateSettings(settings)
    }
}
