import Foundation
import SwitchboardCore

/// Finds out who signed in: the id_token when one came (verified), else the
/// userinfo endpoint, else the provider's own user API. The identity is
/// (provider, stable id), never an email or a login name.
public struct IdentityResolver: Sendable {
    public let provider: ProviderID
    public let endpoints: ProviderEndpoints
    public let clientID: String
    /// Claims joined with ":" to make the subject: `["sub"]`, or Microsoft's
    /// `["oid", "tid"]`.
    public let subjectClaims: [String]
    public let transport: any HTTPTransport
    public let clock: any FlowClock

    public init(
        provider: ProviderID, endpoints: ProviderEndpoints, clientID: String, subjectClaims: [String] = ["sub"],
        transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock()
    ) {
        self.provider = provider
        self.endpoints = endpoints
        self.clientID = clientID
        self.subjectClaims = subjectClaims
        self.transport = transport
        self.clock = clock
    }

    /// The identity behind freshly issued tokens.
    public func identity(for tokens: TokenSet) async throws(FlowFailure) -> LinkedIdentity {
        if let idToken = tokens.idToken, let jwks = endpoints.jwks, let issuer = endpoints.issuer {
            let claims = try await IDTokenVerifier(jwks: jwks, issuer: issuer, clientID: clientID, transport: transport, now: clock.now()).verify(idToken)
            let parts = subjectClaims.compactMap { claims.claim($0) }
            guard parts.count == subjectClaims.count else {
                throw .unverifiable("the id_token lacks \(subjectClaims.joined(separator: " and "))")
            }
            return LinkedIdentity(
                identity: Identity(provider: provider, subject: parts.joined(separator: ":")),
                displayName: claims.name ?? claims.preferred_username, email: claims.email,
                emailVerified: claims.email_verified?.value ?? false)
        }
        if let userinfo = endpoints.userinfo {
            let profile = try await fetchProfile(userinfo, token: tokens.accessToken)
            guard let subject = profile["sub"] else { throw .unverifiable("the userinfo answer has no sub") }
            return linked(subject: subject, profile)
        }
        if let userAPI = endpoints.userAPI {
            let profile = try await fetchProfile(userAPI, token: tokens.accessToken)
            guard let id = profile["id"], Int64(id) != nil else { throw .unverifiable("the user API answer has no numeric id") }
            return linked(subject: id, profile)
        }
        throw .configuration("\(provider) offers no way to learn who signed in (no id_token, userinfo or user API)")
    }

    /// What re-checking a stored credential with the provider found.
    public func check(_ tokens: TokenSet) async throws(FlowFailure) -> CredentialState {
        guard let url = endpoints.userinfo ?? endpoints.userAPI else { return .authorized }
        let response: HTTPResponse
        do { response = try await transport.send(request(url, token: tokens.accessToken)) } catch { throw FlowFailure(error) }
        switch response.status {
        case 200..<300: return .authorized
        case 401, 403: return .revoked
        case 404, 410: return .notFound
        default: throw .invalidResponse("HTTP \(response.status) from \(url.host ?? "the userinfo endpoint")")
        }
    }

    private func linked(subject: String, _ profile: OAuthFields) -> LinkedIdentity {
        LinkedIdentity(
            identity: Identity(provider: provider, subject: subject),
            displayName: profile["name"] ?? profile["preferred_username"] ?? profile["login"],
            email: profile["email"], emailVerified: profile["email_verified"] == "true" || profile["email_verified"] == "1")
    }

    private func fetchProfile(_ url: URL, token: String) async throws(FlowFailure) -> OAuthFields {
        let response: HTTPResponse
        do { response = try await transport.send(request(url, token: token)) } catch { throw FlowFailure(error) }
        return try checkedFields(response, from: url)
    }

    private func request(_ url: URL, token: String) -> HTTPRequest {
        HTTPRequest(url: url, headers: ["Authorization": "Bearer \(token)", "Accept": "application/json", "User-Agent": "switchboard"])
    }
}
