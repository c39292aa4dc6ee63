import DemoProvider
import Foundation
import Testing

@Suite("POST /api/settings refuses numbers no client could use")
struct SettingsLimitTests {
    @Test("out-of-range or non-numeric values are refused, naming the field, and change nothing", arguments: [
        #"{"expires_in": 1e300}"#, #"{"expires_in": 9223372036854775807}"#, #"{"expires_in": 86401}"#, #"{"expires_in": 0}"#,
        #"{"expires_in": "nan"}"#, #"{"interval": 20000000000}"#, #"{"interval": 601}"#, #"{"interval": -1}"#,
        #"{"slow_down_polls": 9223372036854775807}"#, #"{"access_token_lifetime": 9223372036854775807}"#,
    ])
    func refused(body: String) async throws {
        try await withServer { h in
            let before = await h.server.settings
            let reply = try await HTTP.postJSONText(h.url("/api/settings"), body)
            #expect(reply.status == 400, "\(body)")
            #expect(await h.server.settings == before)
            #expect(try await h.startFlow().expires_in == before.expiresIn)
        }
    }

    @Test("the limits themselves are accepted")
    func limits() async throws {
        try await withServer { h in
            let reply = try await HTTP.postJSON(h.url("/api/settings"), ["expires_in": 86_400, "interval": 600, "access_token_lifetime": 366 * 86_400])
            #expect(reply.status == 200)
            #expect(await h.server.settings == DemoSettings(expiresIn: 86_400, interval: 600, accessTokenLifetime: 366 * 86_400))
        }
    }

    @Test("the reason names the field")
    func namesTheField() {
        #expect(DemoSettings(interval: 20_000_000_000).problem?.contains("interval") == true)
        #expect(DemoSettings(expiresIn: .max).problem?.contains("expiresIn") == true)
        #expect(DemoSettings().problem == nil)
    }
}
