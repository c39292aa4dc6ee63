import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// Answers the signing keys at `/jwks` and `profile` (or an HTTP 500) at `/userinfo`, counting what was asked.
private final class ProviderStandIn: HTTPTransport, Sendable {
    let keys: Data
    let profile: Data?
    let asked = Mutex<[String]>([])

    init(keys: [String: Any], profile: [String: Any]?) {
        self.keys = try! JSONSerialization.data(withJSONObject: keys)
        self.profile = profile.map { try! JSONSerialization.data(withJSONObject: $0) }
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        asked.withLock { $0.append(request.url.path) }
        if request.url.path.hasSuffix("/jwks") { return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: keys) }
        guard let profile else { return HTTPResponse(status: 500) }
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: profile)
    }
}

@Suite("UserInfo fills what an id_token lacks")
struct UserInfoFillTests {
    static func resolve(claims: [String: Any], profile: [String: Any]?) async throws -> (LinkedIdentity, [String]) {
        let minter = await Minter.make(kid: "k")
        let token = try await minter.sign(claims)
        let transport = ProviderStandIn(keys: ["keys": [minter.jwk]], profile: profile)
        let resolver = IdentityResolver(
            provider: "work",
            endpoints: ProviderEndpoints(
                issuer: "https://issuer.test", deviceAuthorization: nil, token: URL(string: "https://issuer.test/token")!,
                userinfo: URL(string: "https://issuer.test/userinfo")!, jwks: URL(string: "https://issuer.test/jwks")!),
            clientID: "c", transport: transport, clock: ManualClock(checkedAt))
        let linked = try await resolver.identity(for: TokenSet(accessToken: "a", idToken: token))
        return (linked, transport.asked.withLock { $0 })
    }

    @Test("an id_token with only sub: name, email and login from UserInfo, whose sub is the same")
    func filled() async throws {
        let (linked, asked) = try await Self.resolve(
            claims: goodClaims(), profile: ["sub": "s-1", "name": "Ada Lovelace", "email": "ada@example.test", "email_verified": true,
                                             "preferred_username": "ada"])
        #expect(linked.identity == Identity(provider: "work", subject: "s-1"))
        #expect(linked.displayName == "Ada Lovelace" && linked.email == "ada@example.test" && linked.emailVerified && linked.login == "ada")
        #expect(asked == ["/jwks", "/userinfo"])
    }

    @Test("UserInfo naming another sub, or failing, is passed over: the id_token's person stands, without a name")
    func passedOver() async throws {
        for profile in [["sub": "s-2", "name": "Grace Hopper", "email": "grace@example.test"], nil] as [[String: Any]?] {
            let (linked, _) = try await Self.resolve(claims: goodClaims(), profile: profile)
            #expect(linked.identity.subject == "s-1")
            #expect(linked.displayName == nil && linked.email == nil)
        }
    }

    @Test("an id_token with a name and an email asks UserInfo nothing")
    func notAsked() async throws {
        let (linked, asked) = try await Self.resolve(
            claims: goodClaims(["name": "Ada", "email": "ada@example.test"]), profile: ["sub": "s-1", "name": "Other"])
        #expect(linked.displayName == "Ada" && asked == ["/jwks"])
    }
}
