import DemoProvider
import Foundation
import Testing

@Suite("Forget")
struct ForgetTests {
    @Test func forgottenPersonGetsUserinfo404AndRefreshInvalidGrant() async throws {
        try await withServer { h in
            let tokens = try await h.signIn(as: "ada")
            let other = try await h.signIn(as: "grace")
            let reply = try await HTTP.postJSON(h.url("/api/forget"), ["person": "ada"])
            #expect(reply.status == 200)

            let info = try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token)
            #expect(info.status == 404)
            #expect(info.error == "user_not_found")
            let refresh = try await h.refresh(tokens.refresh_token)
            #expect(refresh.status == 400)
            #expect(refresh.error == "invalid_grant")
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: other.access_token).status == 200)

            let people = try await HTTP.get(h.url("/api/people")).jsonArray.compactMap { $0["id"] as? String }
            #expect(people == ["grace", "zoe", "alan"])
            let start = try await h.startFlow()
            let approval = try await h.apiApprove(start.user_code, person: "ada")
            #expect(approval.status == 400)
            #expect(approval.error == "unknown_person")

            #expect(try await HTTP.postJSON(h.url("/api/forget"), ["person": "bob"]).status == 400)
        }
    }

    @Test func forgetInProcess() async throws {
        try await withServer { h in
            let tokens = try await h.signIn(as: "alan")
            try await h.server.forget(personID: "alan")
            #expect(try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).status == 404)
            await #expect(throws: DemoError.unknownPerson("bob")) { try await h.server.forget(personID: "bob") }
        }
    }
}
