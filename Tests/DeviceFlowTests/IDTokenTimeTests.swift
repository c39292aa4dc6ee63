import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

private let now = checkedAt.timeIntervalSince1970

/// One change to good claims, and the words of the refusal (nil: accepted).
private var timeCases: [(String, [String: Any?], String?)] {
    [
        ("good claims", [:], nil),
        ("exp missing", ["exp": nil], "the id_token has no exp (expiry) claim"),
        ("exp as text", ["exp": "tomorrow"], "the id_token claim exp is not a number"),
        ("exp as a numeric string", ["exp": "1800003600"], "the id_token claim exp is not a number"),
        ("exp true", ["exp": true], "the id_token claim exp is not a number"),
        ("exp null", ["exp": NSNull()], "the id_token claim exp is not a number"),
        ("exp a minute and a half ago", ["exp": now - 90], "the id_token expired at 2027-01-15T07:58:30Z"),
        ("exp half a minute ago (within the leeway)", ["exp": now - 30], nil),
        ("exp far in the future", ["exp": 1e300], nil),
        ("nbf two minutes ahead", ["nbf": now + 120], "the id_token is not valid before 2027-01-15T08:02:00Z"),
        ("nbf half a minute ahead (within the leeway)", ["nbf": now + 30], nil),
        ("nbf past", ["nbf": now - 600], nil),
        ("nbf absurdly far ahead", ["nbf": 1e300], "the id_token is not valid before 1e+300 s after 1970"),
        ("nbf as text", ["nbf": "now"], "the id_token claim nbf is not a number"),
        ("iat two minutes ahead", ["iat": now + 120], "the id_token was issued in the future (at 2027-01-15T08:02:00Z)"),
        ("iat half a minute ahead (within the leeway)", ["iat": now + 30], nil),
        ("iat missing", ["iat": nil], nil),
        ("iat a list", ["iat": [now]], "the id_token claim iat is not a number"),
        ("iat an object", ["iat": ["at": now]], "the id_token claim iat is not a number"),
    ]
}

@Suite("id_token time claims: exp, nbf and iat each checked, each failure in its own words")
struct IDTokenTimeTests {
    @Test("each time claim is checked against the clock with a minute's leeway", arguments: timeCases.indices)
    func timeClaims(index: Int) async throws {
        let (_, changes, refusal) = timeCases[index]
        let minter = await Minter.make(kid: "k")
        let token = try await minter.sign(goodClaims(changes))
        if let refusal {
            await #expect(throws: FlowFailure.unverifiable(refusal)) { try await verifier(keys: ["keys": [minter.jwk]]).verify(token) }
        } else {
            #expect(try await verifier(keys: ["keys": [minter.jwk]]).verify(token).sub == "s-1")
        }
    }

    @Test("the leeway is the same minute on each side, for every claim")
    func leewayEdges() async throws {
        let minter = await Minter.make(kid: "k")
        for (claim, accepted, refused) in [("exp", now - 59, now - 60), ("nbf", now + 60, now + 61), ("iat", now + 60, now + 61)] {
            let good = try await minter.sign(goodClaims([claim: accepted]))
            #expect(try await verifier(keys: ["keys": [minter.jwk]]).verify(good).sub == "s-1", "\(claim) at the leeway")
            let bad = try await minter.sign(goodClaims([claim: refused]))
            await #expect(throws: FlowFailure.self, "\(claim) past the leeway") { try await verifier(keys: ["keys": [minter.jwk]]).verify(bad) }
        }
    }

    @Test("the resolver checks the times on its injected clock: a token not yet valid becomes valid as the clock moves")
    func injectedClock() async throws {
        let minter = await Minter.make(kid: "k")
        let token = try await minter.sign(goodClaims(["nbf": now + 600]))
        let clock = ManualClock(checkedAt)
        let resolver = IdentityResolver(
            provider: "work",
            endpoints: ProviderEndpoints(
                issuer: "https://issuer.test", deviceAuthorization: nil, token: URL(string: "https://issuer.test/token")!,
                jwks: URL(string: "https://issuer.test/jwks")!),
            clientID: "c", transport: FixedAnswer(json: ["keys": [minter.jwk]]), clock: clock)
        await #expect(throws: FlowFailure.unverifiable("the id_token is not valid before 2027-01-15T08:10:00Z")) {
            try await resolver.identity(for: TokenSet(accessToken: "a", idToken: token))
        }
        clock.advance(by: 600)
        #expect(try await resolver.identity(for: TokenSet(accessToken: "a", idToken: token)).identity.subject == "s-1")
    }

    @Test("a refusal reads plainly where the sign-in reports it")
    func wording() {
        let failure = FlowFailure.unverifiable("the id_token claim exp is not a number")
        #expect(failure.description == "the sign-in could not be verified: the id_token claim exp is not a number")
    }
}
