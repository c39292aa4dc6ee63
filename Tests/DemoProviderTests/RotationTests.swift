import DemoProvider
import Foundation
import Testing

@Suite("Rotating refresh tokens and short access tokens")
struct RotationTests {
    @Test("without rotation a refresh keeps the refresh token, which keeps working")
    func keptByDefault() async throws {
        try await withServer { h in
            let tokens = try await h.signIn()
            let renewed = try await h.refresh(tokens.refresh_token).decode(TokenBody.self)
            #expect(renewed.refresh_token == tokens.refresh_token)
            #expect(try await h.refresh(tokens.refresh_token).status == 200)
        }
    }

    @Test("with rotation each refresh gives a new refresh token and the used one answers invalid_grant")
    func rotation() async throws {
        try await withServer(settings: DemoSettings(rotateRefreshTokens: true)) { h in
            let tokens = try await h.signIn()
            let first = try await h.refresh(tokens.refresh_token)
            #expect(first.status == 200)
            let renewed = try first.decode(TokenBody.self)
            #expect(renewed.refresh_token != tokens.refresh_token)
            let reused = try await h.refresh(tokens.refresh_token)
            #expect(reused.status == 400)
            #expect(reused.error == "invalid_grant")
            let second = try await h.refresh(renewed.refresh_token).decode(TokenBody.self)
            #expect(second.refresh_token != renewed.refresh_token)
            // Access tokens from before the rotation still work, and go when the current refresh token is revoked.
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).status == 200)
            #expect(try await HTTP.postForm(h.url("/revoke"), ["token": second.refresh_token]).status == 200)
            for token in [tokens.access_token, renewed.access_token, second.access_token] {
                #expect(try await HTTP.get(h.url("/userinfo"), bearer: token).status == 401)
            }
        }
    }

    @Test("settings API: rotateRefreshTokens and accessTokenLifetime, read back and applied to the next refresh")
    func settingsAPI() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { h in
            let tokens = try await h.signIn()
            let before = try await HTTP.get(h.url("/api/settings"))
            #expect(before.json["rotate_refresh_tokens"] as? Bool == false)
            #expect(before.json["access_token_lifetime"] as? Int == 3600)
            let changed = try await HTTP.postJSON(h.url("/api/settings"), ["rotate_refresh_tokens": true, "access_token_lifetime": 1])
            #expect(changed.status == 200)
            #expect(changed.json["rotate_refresh_tokens"] as? Bool == true)
            #expect(await h.server.settings.rotateRefreshTokens)
            let renewed = try await h.refresh(tokens.refresh_token).decode(TokenBody.self)
            #expect(renewed.expires_in == 1)
            #expect(renewed.refresh_token != tokens.refresh_token)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: renewed.access_token).status == 200)
            clock.advance(by: 1)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: renewed.access_token).status == 401)
        }
    }
}
