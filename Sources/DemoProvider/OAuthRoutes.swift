import FlyingFox
import Foundation

/// The OpenID Provider metadata (OpenID Connect Discovery 1.0 §3).
struct DiscoveryDocument: Encodable {
    let issuer: String
    let deviceAuthorizationEndpoint: String
    let tokenEndpoint: String
    let userinfoEndpoint: String
    let jwksUri: String
    let revocationEndpoint: String
    let grantTypesSupported = ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]
    let scopesSupported = ["openid", "profile", "email", "offline_access"]
    let responseTypesSupported = ["code"]
    let subjectTypesSupported = ["public"]
    let idTokenSigningAlgValuesSupported = ["ES256"]
    let tokenEndpointAuthMethodsSupported = ["none", "client_secret_post"]
    let claimsSupported = ["sub", "iss", "aud", "exp", "iat", "name", "preferred_username", "email", "email_verified"]
}

/// The device authorization response (RFC 8628 §3.2).
struct DeviceAuthorizationResponse: Encodable {
    let deviceCode: String
    let userCode: String
    let verificationUri: String
    let verificationUriComplete: String
    let expiresIn: Int
    let interval: Int
}

/// The userinfo response (OpenID Connect Core §5.3.2).
struct UserInfoResponse: Encodable {
    let sub: String
    let name: String
    /// The person's short id (`ada`).
    let preferredUsername: String
    let email: String?
    let emailVerified: Bool
}

/// The JWK set published at `/jwks`.
struct JWKSet: Encodable {
    let keys: [PublicJWK]
}

extension Provider {
    /// Scope granted when the client asks for none.
    static let defaultScope = "openid profile email offline_access"

    /// `GET /.well-known/openid-configuration`
    func discovery() -> HTTPResponse {
        Reply.json(DiscoveryDocument(
            issuer: issuer,
            deviceAuthorizationEndpoint: issuer + "/device_authorization",
            tokenEndpoint: issuer + "/token",
            userinfoEndpoint: issuer + "/userinfo",
            jwksUri: issuer + "/jwks",
            revocationEndpoint: issuer + "/revoke"))
    }

    /// `POST /device_authorization` (RFC 8628 §3.1).
    func deviceAuthorization(_ request: HTTPRequest) async -> HTTPResponse {
        let form = await request.formFields()
        guard let clientID = form["client_id"], !clientID.isEmpty else {
            return Reply.error("invalid_request", "client_id is required")
        }
        let requested = form["scope"]?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
        let grant = await store.issueDeviceCode(clientID: clientID,
                                                scope: requested.isEmpty ? Self.defaultScope : requested)
        let userCode = Secrets.display(grant.userCode)
        return Reply.json(DeviceAuthorizationResponse(
            deviceCode: grant.deviceCode,
            userCode: userCode,
            verificationUri: issuer + "/device",
            verificationUriComplete: issuer + "/device?user_code=" + userCode,
            expiresIn: grant.expiresIn,
            interval: grant.interval))
    }

    /// `GET /jwks`
    func jwks() -> HTTPResponse {
        Reply.json(JWKSet(keys: [signer.jwk]))
    }

    /// `GET /userinfo` with a bearer token (OpenID Connect Core §5.3, RFC 6750 §3).
    func userInfo(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = request.bearerToken else {
            var response = Reply.error("invalid_request", "a bearer token is required", status: .unauthorized)
            response.headers[HTTPHeader("WWW-Authenticate")] = #"Bearer realm="demo""#
            return response
        }
        switch await store.userInfo(accessToken: token) {
        case .person(let person):
            return Reply.json(UserInfoResponse(sub: person.subject, name: person.name, preferredUsername: person.id,
                                               email: person.email, emailVerified: person.emailVerified))
        case .invalidToken:
            var response = Reply.error("invalid_token", "the access token is invalid, revoked or expired",
                                       status: .unauthorized)
            response.headers[HTTPHeader("WWW-Authenticate")] = #"Bearer error="invalid_token""#
            return response
        case .personForgotten:
            return Reply.error("user_not_found", "the provider no longer knows this person", status: .notFound)
        }
    }

    /// `POST /revoke` (RFC 7009): always 200, even for unknown tokens.
    func revoke(_ request: HTTPRequest) async -> HTTPResponse {
        let form = await request.formFields()
        if let token = form["token"], !token.isEmpty {
            await store.revoke(token: token)
        }
        return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.cacheControl: "no-store"]))
    }
}
