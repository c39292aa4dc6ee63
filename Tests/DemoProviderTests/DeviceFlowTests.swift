import DemoProvider
import Foundation
import Testing

@Suite("Device flow")
struct DeviceFlowTests {
    @Test func approveTokenUserinfoRefreshRevoke() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let pending = try await h.poll(start.device_code)
            #expect(pending.status == 400)
            #expect(pending.error == "authorization_pending")

            let approval = try await h.apiApprove(start.user_code, person: "zoe")
            #expect(approval.status == 200)
            #expect(approval.json["ok"] as? Bool == true)
            #expect(approval.json["person"] as? String == "zoe")

            let tokenReply = try await h.poll(start.device_code)
            #expect(tokenReply.status == 200)
            #expect(tokenReply.header("Cache-Control") == "no-store")
            #expect(tokenReply.header("Content-Type")?.hasPrefix("application/json") == true)
            let tokens = try tokenReply.decode(TokenBody.self)
            #expect(tokens.token_type == "Bearer")
            #expect(tokens.expires_in == 3600)
            #expect(tokens.scope == "openid profile email offline_access")
            #expect(tokens.access_token.count >= 43 && tokens.refresh_token.count >= 43)
            #expect(tokens.access_token != tokens.refresh_token)

            let info = try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token)
            #expect(info.status == 200)
            let person = try info.decode(UserInfo.self)
            #expect(person == UserInfo(sub: "1994", name: "Zoë Ångström",
                                       email: "zoe@demo.switchboard.test", email_verified: true))

            let refreshed = try await h.refresh(tokens.refresh_token)
            #expect(refreshed.status == 200)
            let renewed = try refreshed.decode(TokenBody.self)
            #expect(renewed.access_token != tokens.access_token)
            #expect(!renewed.id_token.isEmpty)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: renewed.access_token).status == 200)

            let revoked = try await HTTP.postForm(h.url("/revoke"), [
                "token": renewed.refresh_token, "token_type_hint": "refresh_token", "client_id": h.clientID,
            ])
            #expect(revoked.status == 200)
            let failed = try await h.refresh(renewed.refresh_token)
            #expect(failed.status == 400)
            #expect(failed.error == "invalid_grant")
            // Revoking the refresh token revoked the access tokens issued with it.
            for token in [tokens.access_token, renewed.access_token] {
                let gone = try await HTTP.get(h.url("/userinfo"), bearer: token)
                #expect(gone.status == 401)
                #expect(gone.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
            }
        }
    }

    @Test func revokingAnAccessTokenLeavesTheRefreshToken() async throws {
        try await withServer { h in
            let tokens = try await h.signIn()
            #expect(try await HTTP.postForm(h.url("/revoke"), ["token": tokens.access_token]).status == 200)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).status == 401)
            #expect(try await h.refresh(tokens.refresh_token).status == 200)
            // Unknown tokens: still 200 (RFC 7009 §2.2).
            #expect(try await HTTP.postForm(h.url("/revoke"), ["token": "nonsense"]).status == 200)
        }
    }

    @Test func deviceCodeIsSingleUse() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            #expect(try await h.apiApprove(start.user_code).status == 200)
            #expect(try await h.poll(start.device_code).status == 200)
            let again = try await h.poll(start.device_code)
            #expect(again.status == 400)
            #expect(again.error == "invalid_grant")
            let reapprove = try await h.apiApprove(start.user_code)
            #expect(reapprove.status == 409)
            #expect(reapprove.error == "code_already_used")
            #expect(try await h.poll("not-a-device-code").error == "invalid_grant")
        }
    }

    @Test func accessTokensExpireByTheInjectedClock() async throws {
        let clock = TestClock()
        try await withServer(settings: DemoSettings(accessTokenLifetime: 60), clock: clock) { h in
            let tokens = try await h.signIn(as: "Grace Hopper")
            #expect(tokens.expires_in == 60)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).status == 200)
            clock.advance(by: 61)
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).status == 401)
            #expect(try await HTTP.get(h.url("/userinfo")).status == 401)
        }
    }

    @Test func inProcessApprovalAcceptsNamesAndAnyCodeSpelling() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let sloppy = start.user_code.lowercased().replacingOccurrences(of: "-", with: "")
            await #expect(throws: DemoError.unknownPerson("nobody")) {
                try await h.server.approve(userCode: sloppy, as: "nobody")
            }
            try await h.server.approve(userCode: sloppy, as: "zoë ÅNGSTRÖM")
            await #expect(throws: DemoError.codeAlreadyUsed) {
                try await h.server.approve(userCode: start.user_code, as: "ada")
            }
            let tokens = try await h.poll(start.device_code).decode(TokenBody.self)
            let info = try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).decode(UserInfo.self)
            #expect(info.sub == "1994")
            await #expect(throws: DemoError.unknownCode) {
                try await h.server.deny(userCode: "BBBB-BBBB")
            }
        }
    }
}

/// The userinfo response.
struct UserInfo: Decodable, Equatable {
    let sub: String
    let name: String
    let email: String?
    let email_verified: Bool
}
