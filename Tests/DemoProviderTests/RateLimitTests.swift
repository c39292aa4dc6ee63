import DemoProvider
import Foundation
import Testing

@Suite("Rate limiting")
struct RateLimitTests {
    @Test func fiveWrongCodesBlockFurtherAttemptsUntilTheWindowPasses() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { h in
            let start = try await h.startFlow()
            for wrong in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG"] {
                let reply = try await h.apiApprove(wrong)
                #expect(reply.status == 404)
                #expect(reply.error == "unknown_code")
            }
            // Even the right code is refused now, over JSON and HTML.
            let blocked = try await h.apiApprove(start.user_code)
            #expect(blocked.status == 429)
            #expect(blocked.error == "too_many_attempts")
            let page = try await HTTP.postForm(h.url("/device"), [
                "user_code": start.user_code, "person": "ada", "action": "approve",
            ])
            #expect(page.status == 429)
            await #expect(throws: DemoError.tooManyAttempts) {
                try await h.server.approve(userCode: start.user_code, as: "ada")
            }

            clock.advance(by: 60)
            #expect(try await h.apiApprove(start.user_code).status == 200)
        }
    }
}
