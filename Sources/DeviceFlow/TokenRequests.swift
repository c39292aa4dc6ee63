import Foundation
import SwitchboardCore

/// Token endpoint calls besides polling: refresh (RFC 6749 §6) and
/// revocation (RFC 7009).
public struct TokenClient: Sendable {
    public let client: ClientCredentials
    public let transport: any HTTPTransport
    public let clock: any FlowClock

    public init(client: ClientCredentials, transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock()) {
        self.client = client
        self.transport = transport
        self.clock = clock
    }

    /// What became of a refresh.
    public enum RefreshResult: Hashable, Sendable {
        case refreshed(TokenSet)
        /// The provider refused the refresh token: `invalid_grant` (it
        /// revoked the grant), or a 400 or 401 that names no error (a server
        /// that says no without saying why). `why` says which, for people.
        case revoked(why: String)

        /// The refusal of a refresh token that is gone, in its own words.
        public static let revoked = RefreshResult.revoked(why: "revoked")
    }

    /// Trades the refresh token for new tokens. The old refresh token is
    /// kept when the provider does not rotate it, and the old id_token when
    /// the answer has none (OpenID Connect lets a refresh leave it out).
    public func refresh(_ tokens: TokenSet, at endpoint: URL) async throws(FlowFailure) -> RefreshResult {
        guard let refreshToken = tokens.refreshToken else { return .revoked }
        let request = client.form(endpoint, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        do throws(FlowFailure) {
            let response: HTTPResponse
            do { response = try await transport.send(request) } catch { throw FlowFailure(error) }
            // A plain "no" to a refresh token (RFC 6749 §5.2 asks for an error code, and some servers give none) is a refusal too.
            if response.status == 400 || response.status == 401, OAuthFields(response).error == nil {
                return .revoked(why: "HTTP \(response.status), no error code")
            }
            var fresh = try Self.tokens(from: try checkedFields(response, answering: request), at: clock.now())
            if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
            if fresh.idToken == nil { fresh.idToken = tokens.idToken }
            return .refreshed(fresh)
        } catch .provider(let error) where error.code == "invalid_grant" {
            return .revoked
        }
    }

    /// Asks the provider to revoke `token` (RFC 7009). A 200 means done,
    /// whether or not the token was still valid.
    public func revoke(_ token: String, hint: String, at endpoint: URL) async throws(FlowFailure) {
        let request = client.form(endpoint, [("token", token), ("token_type_hint", hint)])
        _ = try await exchange(request, over: transport)
    }

    /// Reads a successful token response. Each token field is checked
    /// before anything else is read from it (`checkedToken`).
    static func tokens(from fields: OAuthFields, at date: Date) throws(FlowFailure) -> TokenSet {
        let access = try checkedToken(fields, "access_token")
        guard let access else { throw .invalidResponse("the token response lacks access_token") }
        let type = try checkedToken(fields, "token_type") ?? "Bearer"
        guard type.lowercased() == "bearer" else { throw .invalidResponse("unsupported token_type \(type.displaySafeSingleLine)") }
        let refresh = try checkedToken(fields, "refresh_token")
        let idToken = try checkedToken(fields, "id_token")
        let lifetime = try fields.seconds("expires_in", atMost: longestTokenLifetime)
        return TokenSet(
            accessToken: access, refreshToken: refresh, idToken: idToken, tokenType: type,
            scope: try checkedToken(fields, "scope"), expiresAt: lifetime.map { Moment(secondsSince1970: date.timeIntervalSince1970 + Double($0)) })
    }

    /// The token fields of a token response, each checked by `checkedToken`.
    static let tokenFields = ["access_token", "token_type", "refresh_token", "id_token", "scope"]

    /// A token field of a token response, nil when absent. A token is
    /// printable ASCII (RFC 6749 Appendix A: `1*VSCHAR`, %x20-7E); one
    /// holding anything else (a NUL, which would cut it short in C strings,
    /// another control character, or a non-ASCII one) is an invalid answer
    /// naming the field, never shortened or cleaned into another token. The
    /// message never holds the token.
    static func checkedToken(_ fields: OAuthFields, _ name: String) throws(FlowFailure) -> String? {
        guard let value = fields[name] else { return nil }
        if let bad = value.unicodeScalars.first(where: { !(0x20...0x7E).contains($0.value) }) {
            let kind = bad.value < 0x20 || bad.value == 0x7F || (0x80...0x9F).contains(bad.value) ? "a control character" : "a character that is not printable ASCII"
            throw .invalidResponse("the token response's \(name) holds \(kind) (U+\(String(format: "%04X", bad.value))); a token is printable ASCII, so it is refused")
        }
        return value
    }

    /// The longest an access token is believed to live, whatever the provider
    /// says (366 days): after that it is refreshed or checked again.
    public static let longestTokenLifetime = 366 * 86_400
}
