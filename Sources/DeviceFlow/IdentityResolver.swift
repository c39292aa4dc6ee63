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
    /// Where the id_token's checked claims are recorded, when traced.
    public let trace: FlowTrace?

    public init(
        provider: ProviderID, endpoints: ProviderEndpoints, clientID: String, subjectClaims: [String] = ["sub"],
        transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock(), trace: FlowTrace? = nil
    ) {
        self.trace = trace
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
            let now = clock.now()
            let verified = try await IDTokenVerifier(jwks: jwks, issuer: issuer, clientID: clientID, transport: transport, now: now).verified(idToken)
            let claims = verified.claims
            trace?.recordIDToken(claims, keyID: verified.keyID, algorithm: verified.algorithm, at: now)
            let parts = subjectClaims.compactMap { claims.claim($0) }
            guard parts.count == subjectClaims.count else {
                throw .unverifiable("the id_token lacks \(subjectClaims.joined(separator: " and "))")
            }
            for (claim, part) in zip(subjectClaims, parts) { try Self.checkSubject(part, field: "the id_token's \(claim)") }
            let linked = LinkedIdentity(
                identity: Identity(provider: provider, subject: parts.joined(separator: ":")),
                displayName: claims.name ?? claims.preferred_username, email: claims.email,
                emailVerified: claims.emailVerified, login: claims.preferred_username)
            return Self.cleaned(await filled(linked, subject: claims.sub, accessToken: tokens.accessToken))
        }
        if let userinfo = endpoints.userinfo {
            let profile = try await fetchProfile(userinfo, token: tokens.accessToken)
            guard let subject = profile["sub"] else { throw .unverifiable("the userinfo answer has no sub") }
            try Self.checkSubject(subject, field: "the userinfo answer's sub")
            return linked(subject: subject, profile)
        }
        if let userAPI = endpoints.userAPI {
            let profile = try await fetchProfile(userAPI, token: tokens.accessToken)
            guard let id = profile["id"], Int64(id) != nil else { throw .unverifiable("the user API answer has no numeric id") }
            return linked(subject: id, profile)
        }
        throw .configuration("\(provider) offers no way to learn who signed in (no id_token, userinfo or user API)")
    }

    /// `linked`, built from an id_token, with what it lacks (a name, an
    /// email) taken from UserInfo (OpenID Connect Core §5.4 lets a provider
    /// put the profile only there): only when UserInfo's `sub` is the
    /// id_token's (§5.3.2). A UserInfo that fails or names another `sub` is
    /// passed over, and traced: the id_token already says who it is.
    private func filled(_ linked: LinkedIdentity, subject: String?, accessToken: String) async -> LinkedIdentity {
        guard linked.displayName == nil || linked.email == nil, let userinfo = endpoints.userinfo, let subject else { return linked }
        let profile: OAuthFields
        do { profile = try await fetchProfile(userinfo, token: accessToken) } catch {
            trace?.recordNote("userinfo", "not used: \(error.description)")
            return linked
        }
        guard profile["sub"] == subject else {
            trace?.recordNote("userinfo", "not used: its sub is not the id_token's")
            return linked
        }
        var filled = linked
        filled.displayName = filled.displayName ?? profile["name"] ?? profile["preferred_username"]
        if filled.email == nil, let email = profile["email"] {
            filled.email = email
            filled.emailVerified = profile["email_verified"] == "true" || profile["email_verified"] == "1"
        }
        filled.login = filled.login ?? profile["preferred_username"]
        return filled
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
        Self.cleaned(LinkedIdentity(
            identity: Identity(provider: provider, subject: subject),
            displayName: profile["name"] ?? profile["preferred_username"] ?? profile["login"],
            email: profile["email"], emailVerified: profile["email_verified"] == "true" || profile["email_verified"] == "1",
            login: profile["login"] ?? profile["preferred_username"]))
    }

    /// A subject is the identity: one holding a control or bidirectional
    /// character (a NUL would cut it short in C strings) is refused whole,
    /// never shortened or cleaned into another person's.
    static func checkSubject(_ subject: String, field: String) throws(FlowFailure) {
        if subject.containsTerminalControl {
            throw .unverifiable("\(field) holds a control character; such a subject is refused")
        }
    }

    /// Names lose their C0, DEL and C1 control characters, never text (a NUL
    /// would cut them short); bidirectional marks stay, as right-to-left
    /// names need them, and every display drops them (`displaySafe`). An
    /// email holding any control character is dropped, so it can never
    /// match another account's.
    static func cleaned(_ linked: LinkedIdentity) -> LinkedIdentity {
        var linked = linked
        let kept = linked.displayName.map { name in
            String(String.UnicodeScalarView(name.unicodeScalars.filter { !(0x00...0x1F).contains($0.value) && !(0x7F...0x9F).contains($0.value) }))
        }
        linked.displayName = kept.flatMap { $0.isEmpty ? nil : $0 }
        // A login is handed to git as it is: one with a control character or white space is dropped.
        if linked.login.map({ $0.isEmpty || $0.containsTerminalControl || $0.unicodeScalars.contains { $0.properties.isWhitespace } }) == true {
            linked.login = nil
        }
        if linked.email?.containsTerminalControl == true {
            linked.email = nil
            linked.emailVerified = false
        }
        return linked
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
