import DemoProvider
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Rate limiting")
struct RateLimitTests {
    @Test("five wrong codes from one address block it, however many connections it opens, until the window passes; the program itself is another client")
    func fiveWrongCodesBlockThatClientUntilTheWindowPassesButNotOthers() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { h in
            let start = try await h.startFlow()
            // One client guesses five times, each try on a connection of its own.
            func guess(_ code: String) async throws -> Reply {
                let guesser = URLSession(configuration: .ephemeral)
                defer { guesser.invalidateAndCancel() }
                return try await HTTP.postJSON(h.url("/api/approve"), ["user_code": code, "person": "ada"], session: guesser)
            }
            for wrong in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG"] {
                let reply = try await guess(wrong)
                #expect(reply.status == 404)
                #expect(reply.error == "unknown_code")
            }
            // That client is refused now, even with the right code.
            let blocked = try await guess(start.user_code)
            #expect(blocked.status == 429)
            #expect(blocked.error == "too_many_attempts")

            // The approval page from the same address is that client too…
            let page = try await HTTP.postForm(h.url("/device"), [
                "user_code": start.user_code, "person": "ada", "action": "approve",
            ])
            #expect(page.status == 429)
            // …and someone else (here the program itself) typing the right code is not held up.
            try await h.server.approve(userCode: start.user_code, as: "ada")
            let second = try await h.startFlow()
            try await h.server.approve(userCode: second.user_code, as: "grace")

            // The guesser may try again once its failures leave the window.
            let third = try await h.startFlow()
            #expect(try await guess(third.user_code).status == 429)
            clock.advance(by: 60)
            #expect(try await guess(third.user_code).status == 200)
        }
    }

    @Test func inProcessWrongCodesAreLimitedToo() async throws {
        try await withServer(clock: TestClock()) { h in
            for wrong in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG"] {
                await #expect(throws: DemoError.unknownCode) { try await h.server.approve(userCode: wrong, as: "ada") }
            }
            let start = try await h.startFlow()
            await #expect(throws: DemoError.tooManyAttempts) {
                try await h.server.approve(userCode: start.user_code, as: "ada")
            }
            // Over HTTP, another client, the same code goes through.
            #expect(try await h.apiApprove(start.user_code).status == 200)
        }
    }
}
