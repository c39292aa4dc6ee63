import Foundation

/// A person the demo provider can sign in.
public struct DemoPerson: Sendable, Equatable, Identifiable {
    /// Short, stable identifier used in forms and the JSON API (e.g. `ada`).
    public let id: String
    /// Display name (the OIDC `name` claim).
    public let name: String
    /// E-mail address (the OIDC `email` claim), if the person has one.
    public let email: String?
    /// Whether the provider vouches for ``email`` (the `email_verified` claim).
    public let emailVerified: Bool
    /// The OIDC `sub` claim: stable across server restarts.
    public let subject: String

    /// Creates a person.
    public init(id: String, name: String, email: String?, emailVerified: Bool, subject: String) {
        self.id = id
        self.name = name
        self.email = email
        self.emailVerified = emailVerified
        self.subject = subject
    }
}

extension DemoPerson {
    /// The built-in cast, in display order.
    static let cast: [DemoPerson] = [
        DemoPerson(id: "ada", name: "Ada Lovelace", email: "ada@demo.switchboard.test",
                   emailVerified: true, subject: "1815"),
        DemoPerson(id: "grace", name: "Grace Hopper", email: "grace@demo.switchboard.test",
                   emailVerified: true, subject: "1906"),
        DemoPerson(id: "zoe", name: "Zoë Ångström", email: "zoe@demo.switchboard.test",
                   emailVerified: true, subject: "1994"),
        DemoPerson(id: "alan", name: "Alan Turing", email: "alan@demo.switchboard.test",
                   emailVerified: false, subject: "1912"),
    ]

    /// Finds a person by id or full name, ignoring case, diacritics and surrounding spaces.
    static func resolve(_ query: String) -> DemoPerson? {
        let key = fold(query)
        guard !key.isEmpty else { return nil }
        return cast.first { fold($0.id) == key } ?? cast.first { fold($0.name) == key }
    }

    /// Looks a person up by exact id.
    static func byID(_ id: String) -> DemoPerson? {
        cast.first { $0.id == id }
    }

    private static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
