import Foundation

/// Who the app is at a provider. The secret, where a provider demands one,
/// is sent in the form body (client_secret_post), never in a URL.
public struct ClientCredentials: Hashable, Sendable, CustomStringConvertible {
    public let clientID: String
    let clientSecret: String?
    /// How a client with a secret proves it (RFC 6749 §2.3.1); a client
    /// without one only names itself (`client_id` in the body).
    public let authentication: ClientAuthentication

    public init(clientID: String, clientSecret: String? = nil, authentication: ClientAuthentication = .basic) {
        self.clientID = clientID
        self.clientSecret = clientSecret.flatMap { $0.isEmpty ? nil : $0 }
        self.authentication = authentication
    }

    public var hasSecret: Bool { clientSecret != nil }

    /// A form POST to `url` of `fields` with the client's credentials: in an
    /// `Authorization: Basic` header (id and secret each form-encoded, then
    /// joined by `:` and base64-encoded, as §2.3.1 says), or as `client_id`
    /// and `client_secret` fields in the body (`post`, or no secret).
    func form(_ url: URL, _ fields: [(String, String)]) -> HTTPRequest {
        guard let clientSecret, authentication == .basic else {
            return HTTPRequest.form(url, fields + [("client_id", clientID)] + (clientSecret.map { [("client_secret", $0)] } ?? []))
        }
        let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(clientSecret)
        return HTTPRequest.form(url, fields, headers: ["Authorization": "Basic " + Data(pair.utf8).base64EncodedString()])
    }

    public var description: String { "client \(clientID)\(hasSecret ? " (with secret, \(authentication.rawValue))" : "")" }
}

/// How a confidential client authenticates at the token, device and
/// revocation endpoints (`client_auth` in config.toml).
public enum ClientAuthentication: String, Hashable, Sendable, CaseIterable {
    /// HTTP Basic (`client_secret_basic`): what RFC 6749 says every server must accept.
    case basic
    /// In the form body (`client_secret_post`).
    case post

    /// The method for a server whose metadata lists `supported`
    /// (`token_endpoint_auth_methods_supported`; nil when it says nothing):
    /// Basic when listed or when nothing is listed, the body when only it is.
    public static func preferred(by supported: [String]?) -> ClientAuthentication {
        guard let supported, !supported.contains("client_secret_basic"), supported.contains("client_secret_post") else { return .basic }
        return .post
    }
}
