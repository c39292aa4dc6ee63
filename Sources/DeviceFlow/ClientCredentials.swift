import Foundation

/// Who the app is at a provider. The secret, where a provider demands one,
/// is sent in the form body (client_secret_post), never in a URL.
public struct ClientCredentials: Hashable, Sendable, CustomStringConvertible {
    public let clientID: String
    let clientSecret: String?

    public init(clientID: String, clientSecret: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var hasSecret: Bool { clientSecret != nil }

    /// `client_id` and, when present, `client_secret` form fields.
    var formFields: [(String, String)] {
        [("client_id", clientID)] + (clientSecret.map { [("client_secret", $0)] } ?? [])
    }

    public var description: String { "client \(clientID)\(hasSecret ? " (with secret)" : "")" }
}
