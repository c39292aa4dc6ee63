import Foundation
import SwitchboardCore

/// One row of the event log.
struct LoggedEvent: Codable, Hashable {
    let kind: String
    let session: String?
    let account: Int64?
    /// A JSON object of strings.
    let detail: String
}

/// What a write on a shared store tells listeners with its notification:
/// the events it appended, and who each session they name acts as when it
/// committed. A listener whose cursor they follow on from needs no read;
/// one that missed something reads the log, which stays the truth. Never
/// a token, a PIN or anything else an event does not hold.
struct ChangePayload: Codable {
    struct Event: Codable, Hashable {
        let id: Int64
        let kind: String
        let session: String?
        let account: Int64?
        let detail: String

        var logged: LoggedEvent { LoggedEvent(kind: kind, session: session, account: account, detail: detail) }
    }

    /// An account as a session's state: enough for `ActiveAccount`.
    struct Person: Codable {
        struct Linked: Codable {
            let provider: String
            let subject: String
            let displayName: String?
            let email: String?
            let emailVerified: Bool
            let state: String
            let login: String?
        }

        let id: Int64
        let name: String
        let identities: [Linked]

        init(_ account: Account) {
            id = account.id.rawValue
            name = account.name
            identities = account.identities.map {
                Linked(provider: $0.identity.provider.rawValue, subject: $0.identity.subject, displayName: $0.displayName, email: $0.email,
                       emailVerified: $0.emailVerified, state: $0.state.rawValue, login: $0.login)
            }
        }

        var account: Account {
            Account(id: AccountID(id), name: name, identities: identities.map {
                StoreSchema.identity(provider: $0.provider, subject: $0.subject, displayName: $0.displayName, email: $0.email,
                                     emailVerified: $0.emailVerified, state: $0.state, login: $0.login)
            })
        }
    }

    /// A session's state: nobody (`person` nil), or a person.
    struct State: Codable {
        let person: Person?
        var active: ActiveAccount { person.map { .account($0.account) } ?? .anonymous }
    }

    let events: [Event]
    let sessions: [String: State]

    /// PostgreSQL refuses a notification's payload of 8000 bytes or more;
    /// a bigger one is left out, and listeners read the log instead.
    static let largest = 7_900

    /// The payload for `events`, with the states of the sessions they name
    /// as `db` sees them now; nil when there is nothing, or too much, to say.
    static func encode(_ events: [Event], db: any SQLConnection) throws -> String? {
        guard !events.isEmpty else { return nil }
        var sessions: [String: State] = [:]
        for name in Set(events.compactMap(\.session)) {
            sessions[name] = State(person: try AppDatabase.stored(db, name: name).active.account.map(Person.init))
        }
        guard let data = try? JSONEncoder().encode(ChangePayload(events: events, sessions: sessions)), data.count <= largest else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String) -> ChangePayload? {
        try? JSONDecoder().decode(ChangePayload.self, from: Data(text.utf8))
    }
}
