import FlyingFox
import Foundation

/// A successful token response (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
struct TokenResponse: Encodable {
    let accessToken: String
    let tokenType = "Bearer"
    let expiresIn: Int
    let refreshToken: String
    let idToken: String
    let scope: String
}

extension Provider {
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// `POST /token`: the device-code grant (RFC 8628 §3.4) and refresh (RFC 6749 §6).
    func token(_ request: HTTPRequest) async -> HTTPResponse {
        let form = await request.formFields()
        guard let grantType = form["grant_type"], !grantType.isEmpty else {
            return Reply.error("invalid_request", "grant_type is required")
        }
        guard grantType == Self.deviceCodeGrant || grantType == "refresh_token" else {
            return Reply.error("unsupported_grant_type", "use \(Self.deviceCodeGrant) or refresh_token")
        }
        guard let clientID = form["client_id"], !clientID.isEmpty else {
            return Reply.error("invalid_request", "client_id is required")
        }
        if grantType == "refresh_token" {
            return await refresh(form["refresh_token"] ?? "", clientID: clientID)
        }
        return await poll(form["device_code"] ?? "", clientID: clientID)
    }

    private func poll(_ deviceCode: String, clientID: String) async -> HTTPResponse {
        guard !deviceCode.isEmpty else { return Reply.error("invalid_request", "device_code is required") }
        switch await store.poll(deviceCode: deviceCode, clientID: clientID) {
        case .pending:
            return Reply.error("authorization_pending", "the person has not approved yet")
        case .slowDown:
            return Reply.error("slow_down", "poll less often: add 5 seconds to the interval")
        case .denied:
            return Reply.error("access_denied", "the person denied the request")
        case .expired:
            return Reply.error("expired_token", "the device code has expired; start again")
        case .invalidGrant:
            return Reply.error("invalid_grant", "unknown or already used device code")
        case .approved(let grant):
            return await tokenResponse(for: grant)
        }
    }

    private func refresh(_ refreshToken: String, clientID: String) async -> HTTPResponse {
        guard !refreshToken.isEmpty else { return Reply.error("invalid_request", "refresh_token is required") }
        guard let grant = await store.refresh(token: refreshToken, clientID: clientID) else {
            return Reply.error("invalid_grant", "the refresh token is invalid or revoked")
        }
        return await tokenResponse(for: grant)
    }

    private func tokenResponse(for grant: TokenGrant) async -> HTTPResponse {
        do {
            let idToken = try await signer.idToken(for: grant.person, audience: grant.clientID,
                                                   issuer: issuer, at: store.now())
            return Reply.json(TokenResponse(accessToken: grant.accessToken, expiresIn: grant.expiresIn,
                                            refreshToken: grant.refreshToken, idToken: idToken,
                                            scope: grant.scope))
        } catch {
            return Reply.error("server_error", "could not sign the ID token", status: .internalServerError)
        }
    }
}
