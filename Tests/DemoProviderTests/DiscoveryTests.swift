import DemoProvider
import Foundation
import Testing

@Suite("Discovery and device authorization")
struct DiscoveryTests {
    @Test func discoveryDocumentHasEveryContractField() async throws {
        try await withServer { h in
            let base = h.base.absoluteString
            #expect(!base.hasSuffix("/"))
            #expect(base.hasPrefix("http://127.0.0.1:"))
            let reply = try await HTTP.get(h.url("/.well-known/openid-configuration"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let doc = reply.json
            #expect(doc["issuer"] as? String == base)
            #expect(doc["device_authorization_endpoint"] as? String == base + "/device_authorization")
            #expect(doc["token_endpoint"] as? String == base + "/token")
            #expect(doc["userinfo_endpoint"] as? String == base + "/userinfo")
            #expect(doc["jwks_uri"] as? String == base + "/jwks")
            #expect(doc["revocation_endpoint"] as? String == base + "/revoke")
            #expect(doc["grant_types_supported"] as? [String]
                == ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"])
            #expect(doc["scopes_supported"] as? [String] == ["openid", "profile", "email", "offline_access"])
            #expect(doc["response_types_supported"] as? [String] == ["code"])
            #expect(doc["subject_types_supported"] as? [String] == ["public"])
            #expect(doc["id_token_signing_alg_values_supported"] as? [String] == ["ES256"])
            #expect(doc["token_endpoint_auth_methods_supported"] as? [String] == ["none", "client_secret_post"])
        }
    }

    @Test func userCodesUseTheRFC8628AlphabetAndShape() async throws {
        try await withServer { h in
            let alphabet = Set("BCDFGHJKLMNPQRSTVWXZ")
            var seen = Set<String>()
            for _ in 0..<40 {
                let start = try await h.startFlow()
                let code = start.user_code
                #expect(code.count == 9)
                #expect(Array(code)[4] == "-")
                #expect(code.replacingOccurrences(of: "-", with: "").allSatisfy(alphabet.contains))
                #expect(start.verification_uri == h.base.absoluteString + "/device")
                #expect(start.verification_uri_complete == h.base.absoluteString + "/device?user_code=" + code)
                #expect(start.expires_in == 600)
                #expect(start.interval == 5)
                // ≥ 32 random bytes, base64url without padding
                #expect(start.device_code.count >= 43)
                #expect(start.device_code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                seen.insert(start.device_code)
            }
            #expect(seen.count == 40)
        }
    }

    @Test func deviceAuthorizationRequiresClientID() async throws {
        try await withServer { h in
            let reply = try await HTTP.postForm(h.url("/device_authorization"), ["scope": "openid"])
            #expect(reply.status == 400)
            #expect(reply.error == "invalid_request")
            #expect(reply.json["error_description"] is String)
        }
    }

    @Test func unknownGrantTypeIsUnsupported() async throws {
        try await withServer { h in
            let reply = try await HTTP.postForm(h.url("/token"), [
                "grant_type": "authorization_code", "code": "x", "client_id": h.clientID,
            ])
            #expect(reply.status == 400)
            #expect(reply.error == "unsupported_grant_type")
            #expect(reply.header("Cache-Control") == "no-store")
        }
    }

    @Test func unknownPathsAndMethodsAreJSONErrors() async throws {
        try await withServer { h in
            #expect(try await HTTP.get(h.url("/nope")).status == 404)
            let wrongMethod = try await HTTP.get(h.url("/token"))
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "POST")
        }
    }
}
