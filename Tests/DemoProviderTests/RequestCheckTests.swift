import DemoProvider
import Foundation
import Testing

@Suite("Requests from elsewhere: Host, Origin and content type")
struct RequestCheckTests {
    @Test func aForeignHostIsRefusedEvenForReading() async throws {
        try await withServer { h in
            let port = h.base.port!
            let foreign = try await HTTP.get(h.url("/api/people"), headers: ["Host": "evil.example:\(port)"])
            #expect(foreign.status == 421)
            #expect(foreign.jsonArray.isEmpty)
            #expect(!foreign.text.contains("Ada"))
            let wrongPort = try await HTTP.get(h.url("/api/people"), headers: ["Host": "127.0.0.1:\(port &+ 1)"])
            #expect(wrongPort.status == 421)
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
                let own = try await HTTP.get(h.url("/api/people"), headers: ["Host": host])
                #expect(own.status == 200, "\(host)")
                #expect(own.jsonArray.count == 4, "\(host)")
            }
        }
    }

    @Test func aCrossOriginSettingsPostChangesNothing() async throws {
        try await withServer { h in
            let before = await h.server.settings
            // What a page on another site can send without asking first.
            let simple = try await HTTP.post(h.url("/api/settings"), body: #"{"deny_all": true}"#,
                                             headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"])
            #expect(simple.status == 403)
            let json = try await HTTP.postJSON(h.url("/api/settings"), ["deny_all": true], headers: ["Origin": "http://evil.example"])
            #expect(json.status == 403)
            // Without an Origin, but not JSON: refused as well.
            let plain = try await HTTP.post(h.url("/api/settings"), body: #"{"deny_all": true}"#, headers: ["Content-Type": "text/plain"])
            #expect(plain.status == 415)
            #expect(await h.server.settings == before)

            // Its own origin, as JSON: accepted.
            let own = try await HTTP.postJSON(h.url("/api/settings"), ["deny_all": true],
                                              headers: ["Origin": "http://127.0.0.1:\(h.base.port!)"])
            #expect(own.status == 200)
            #expect(await h.server.settings.denyAll)
        }
    }

    @Test func theApprovalFormMustBePostedFromItsOwnPage() async throws {
        try await withServer { h in
            let fields = ["user_code": "", "person": "ada", "action": "approve"]
            var start = try await h.startFlow()
            var form = fields
            form["user_code"] = start.user_code
            for headers in [["Origin": "http://evil.example"], ["Origin": "null"], [:],
                            ["Referer": "http://evil.example/device"]] {
                let reply = try await HTTP.postForm(h.url("/device"), form, headers: headers)
                #expect(reply.status == 403, "\(headers)")
                if headers.isEmpty {
                    // A plain scripted post is told what it lacks, and the scripted way.
                    #expect(reply.text.contains("no Origin header") && reply.text.contains("switchboard demo approve CODE"), "\(reply.text)")
                }
            }
            // Still pending: the right page may approve it.
            let own = try await HTTP.postForm(h.url("/device"), form)
            #expect(own.status == 200)
            #expect(own.text.contains("Approved"))

            start = try await h.startFlow()
            form["user_code"] = start.user_code
            let referred = try await HTTP.postForm(h.url("/device"), form,
                                                   headers: ["Referer": "http://127.0.0.1:\(h.base.port!)/device"])
            #expect(referred.status == 200)
        }
    }

    @Test func thePageSendsItsOriginWithItsOwnForm() async throws {
        try await withServer { h in
            let page = try await HTTP.get(h.url("/device"))
            #expect(page.header("Referrer-Policy") == "same-origin")
        }
    }
}
