import DemoProvider
import Foundation
import Testing

@Suite("Approval page")
struct ApprovalPageTests {
    @Test func pageIsPrefilledAndListsPeople() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let page = try await HTTP.get(try #require(URL(string: start.verification_uri_complete)))
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains(#"value="\#(start.user_code)""#))
            for person in DemoServer.people {
                #expect(page.text.contains(#"type="radio" name="person" value="\#(person.id)""#))
            }
            #expect(page.text.contains("Zoë Ångström"))
            #expect(page.text.contains(#"action="/device""#))
            #expect(page.text.contains(#"value="approve""#) && page.text.contains(#"value="deny""#))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"))  // no external assets
        }
    }

    @Test func pageEscapesWhatItEchoes() async throws {
        try await withServer { h in
            let page = try await HTTP.get(h.url("/device?user_code=%22%3E%3Cscript%3Ealert(1)%3C/script%3E"))
            #expect(page.status == 200)
            #expect(!page.text.contains("<script>"))
            #expect(page.text.contains("&quot;&gt;&lt;script&gt;"))
        }
    }

    @Test func approveThroughTheHTMLForm() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let typed = start.user_code.lowercased().replacingOccurrences(of: "-", with: "")
            let result = try await HTTP.postForm(h.url("/device"), [
                "user_code": typed, "person": "grace", "action": "approve",
            ])
            #expect(result.status == 200)
            #expect(result.header("Content-Type") == "text/html; charset=utf-8")
            #expect(result.text.contains("Approved — return to your terminal"))
            let tokens = try await h.poll(start.device_code).decode(TokenBody.self)
            let info = try await HTTP.get(h.url("/userinfo"), bearer: tokens.access_token).decode(UserInfo.self)
            #expect(info.sub == "1906")
        }
    }

    @Test func denyAndUnknownThroughTheHTMLForm() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let denied = try await HTTP.postForm(h.url("/device"), [
                "user_code": start.user_code, "person": "ada", "action": "deny",
            ])
            #expect(denied.status == 200)
            #expect(denied.text.contains("Denied"))
            #expect(try await h.poll(start.device_code).error == "access_denied")

            let unknown = try await HTTP.postForm(h.url("/device"), [
                "user_code": "BBBB-BBBB", "person": "ada", "action": "approve",
            ])
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("Unknown or expired code"))
        }
    }
}
