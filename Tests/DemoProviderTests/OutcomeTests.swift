import DemoProvider
import Foundation
import Testing

@Suite("Deny, expire, slow_down")
struct OutcomeTests {
    @Test func denyViaAPI() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let reply = try await h.apiApprove(start.user_code, person: "ada", deny: true)
            #expect(reply.status == 200)
            #expect(reply.json["ok"] as? Bool == true)
            let poll = try await h.poll(start.device_code)
            #expect(poll.status == 400)
            #expect(poll.error == "access_denied")
        }
    }

    @Test func denyInProcess() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            try await h.server.deny(userCode: start.user_code)
            #expect(try await h.poll(start.device_code).error == "access_denied")
        }
    }

    @Test func denyAllTurnsApprovalsIntoDenials() async throws {
        try await withServer(settings: DemoSettings(denyAll: true)) { h in
            let start = try await h.startFlow()
            #expect(try await h.apiApprove(start.user_code, person: "ada").status == 200)
            #expect(try await h.poll(start.device_code).error == "access_denied")
        }
    }

    @Test func expireViaAPI() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let reply = try await HTTP.postJSON(h.url("/api/expire"), ["user_code": start.user_code])
            #expect(reply.status == 200)
            let poll = try await h.poll(start.device_code)
            #expect(poll.status == 400)
            #expect(poll.error == "expired_token")
            let late = try await h.apiApprove(start.user_code)
            #expect(late.status == 409)
            #expect(late.error == "expired_token")
            #expect(try await HTTP.postJSON(h.url("/api/expire"), ["user_code": "BBBB-BBBB"]).status == 404)
        }
    }

    @Test func expireInProcess() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            try await h.server.expire(userCode: start.user_code)
            #expect(try await h.poll(start.device_code).error == "expired_token")
            await #expect(throws: DemoError.codeAlreadyUsed) {
                try await h.server.approve(userCode: start.user_code, as: "ada")
            }
        }
    }

    @Test func expireByTheInjectedClock() async throws {
        let clock = TestClock()
        try await withServer(settings: DemoSettings(expiresIn: 30), clock: clock) { h in
            let start = try await h.startFlow()
            #expect(start.expires_in == 30)
            clock.advance(by: 29)
            #expect(try await h.poll(start.device_code).error == "authorization_pending")
            clock.advance(by: 1)
            #expect(try await h.poll(start.device_code).error == "expired_token")
            #expect(try await h.apiApprove(start.user_code).error == "expired_token")
        }
    }

    @Test func slowDownForTheFirstPollsThenPending() async throws {
        try await withServer(settings: DemoSettings(slowDownPolls: 2)) { h in
            let start = try await h.startFlow()
            #expect(try await h.poll(start.device_code).error == "slow_down")
            #expect(try await h.poll(start.device_code).error == "slow_down")
            #expect(try await h.poll(start.device_code).error == "authorization_pending")
            // Each device code gets its own budget.
            let second = try await h.startFlow()
            #expect(try await h.poll(second.device_code).error == "slow_down")
            #expect(try await h.apiApprove(second.user_code).status == 200)
            #expect(try await h.poll(second.device_code).error == "slow_down")
            #expect(try await h.poll(second.device_code).status == 200)
        }
    }

    @Test func pollsFromAnotherClientAreRejected() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let reply = try await HTTP.postForm(h.url("/token"), [
                "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                "device_code": start.device_code, "client_id": "someone-else",
            ])
            #expect(reply.error == "invalid_grant")
        }
    }
}
