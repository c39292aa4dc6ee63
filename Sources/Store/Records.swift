import Foundation
import GRDB
import SwitchboardCore

// Plain records, one per table; persistence lives here in the store, never
// in the core's types. Column names match the migrations.

struct AccountRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "account"
    var id: Int64?
    var name: String
    /// `AccountOrder.nameKey(name)`: what the name is found and sorted by.
    var nameKey: String
    var createdAt: Date
    var lastUsedAt: Date?
    var useCount: Int

    init(name: String, createdAt: Date, useCount: Int) {
        self.name = name
        nameKey = AccountOrder.nameKey(name)
        self.createdAt = createdAt
        self.useCount = useCount
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static let identities = hasMany(IdentityRecord.self)
}

struct IdentityRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "identity"
    var provider: String
    var subject: String
    var accountId: Int64
    var displayName: String?
    var email: String?
    /// `AccountOrder.emailKey(email)`: what the email is found by.
    var emailKey: String?
    var emailVerified: Bool
    var state: String
    var linkedAt: Date
    var checkedAt: Date?
    var login: String?

    init(_ linked: LinkedIdentity, account: AccountID, at date: Date) {
        provider = linked.identity.provider.rawValue
        subject = linked.identity.subject
        accountId = account.rawValue
        displayName = linked.displayName
        email = linked.email
        emailKey = linked.email.map(AccountOrder.emailKey)
        emailVerified = linked.emailVerified
        state = linked.state.rawValue
        linkedAt = date
        checkedAt = date
        login = linked.login
    }

    var identity: Identity { Identity(provider: ProviderID(provider), subject: subject) }

    var linked: LinkedIdentity {
        LinkedIdentity(
            identity: identity, displayName: displayName, email: email, emailVerified: emailVerified,
            state: CredentialState(rawValue: state) ?? .notFound, login: login)
    }

    static func key(_ identity: Identity) -> [String: any DatabaseValueConvertible] {
        ["provider": identity.provider.rawValue, "subject": identity.subject]
    }
}

struct SessionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "session"
    var key: String
    var accountId: Int64?
    var updatedAt: Date
    var lifetime: String?
}

struct FavouriteRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "favourite"
    var accountId: Int64
    var showId: String
    var createdAt: Date
}

struct EventRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "event"
    var id: Int64?
    var at: Date
    var session: String?
    var kind: String
    var accountId: Int64?
    /// JSON object of non-secret details.
    var detail: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
