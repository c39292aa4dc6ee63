import DemoProvider
import Foundation
import Testing

@Suite("Lifecycle and JSON API")
struct LifecycleTests {
    @Test func fallsBackToAFreePortWhenThePortIsTaken() async throws {
        try await withServer { first in
            let port = try #require(first.base.port)
            let second = DemoServer()
            let url = try await second.start(port: UInt16(port))
            #expect(url.port != port)
            #expect(url.host == "127.0.0.1")
            #expect(await second.baseURL == url)
            #expect(try await HTTP.get(URL(string: url.absoluteString + "/jwks")!).status == 200)
            await second.stop()
            #expect(await second.baseURL == nil)

            let strict = DemoServer()
            await #expect {
                _ = try await strict.start(port: UInt16(port), fallbackToFreePort: false)
            } throws: { error in
                guard case DemoError.cannotBind = error else { return false }
                return true
            }
        }
    }

    @Test func restartKeepsGrantsAndServesTheNewIssuer() async throws {
        let server = DemoServer()
        let first = try await server.start(port: 0)
        #expect(try await server.start(port: 0) == first)  // already running
        await server.stop()
        let second = try await server.start(port: 0)
        let doc = try await HTTP.get(URL(string: second.absoluteString + "/.well-known/openid-configuration")!)
        #expect(doc.json["issuer"] as? String == second.absoluteString)
        await server.stop()
    }

    @Test func peopleAndSettingsAPI() async throws {
        try await withServer { h in
            let people = try await HTTP.get(h.url("/api/people")).jsonArray
            #expect(people.count == 4)
            let alan = try #require(people.first { $0["id"] as? String == "alan" })
            #expect(alan["name"] as? String == "Alan Turing")
            #expect(alan["subject"] as? String == "1912")
            #expect(alan["email_verified"] as? Bool == false)
            #expect(DemoServer.people.map(\.subject) == ["1815", "1906", "1994", "1912"])

            let settings = try await HTTP.get(h.url("/api/settings")).json
            #expect(settings["expires_in"] as? Int == 600)
            let changed = try await HTTP.postJSON(h.url("/api/settings"), [
                "expires_in": 120, "interval": 1, "slow_down_polls": 1, "deny_all": false,
            ])
            #expect(changed.status == 200)
            #expect(changed.json["interval"] as? Int == 1)
            #expect(await h.server.settings == DemoSettings(expiresIn: 120, interval: 1, slowDownPolls: 1))
            let start = try await h.startFlow()
            #expect(start.expires_in == 120 && start.interval == 1)
            #expect(try await h.poll(start.device_code).error == "slow_down")
            #expect(try await HTTP.postJSON(h.url("/api/settings"), ["expires_in": -1]).status == 400)

            await h.server.updateSettings(DemoSettings(interval: 7))
            #expect(try await h.startFlow().interval == 7)
        }
    }

    @Test func apiApproveErrors() async throws {
        try await withServer { h in
            let start = try await h.startFlow()
            let person = try await h.apiApprove(start.user_code, person: "nobody")
            #expect(person.status == 400)
            #expect(person.error == "unknown_person")
            let byName = try await h.apiApprove(start.user_code, person: "ADA LOVELACE")
            #expect(byName.status == 200)
            #expect(byName.json["person"] as? String == "ada")
            let form = try await HTTP.postForm(h.url("/api/approve"), ["user_code": start.user_code])
            #expect(form.status == 415)
            let malformed = try await HTTP.post(h.url("/api/approve"), body: "user_code=x", headers: ["Content-Type": "application/json"])
            #expect(malformed.status == 400)
            #expect(malformed.error == "invalid_request")
        }
    }
}
