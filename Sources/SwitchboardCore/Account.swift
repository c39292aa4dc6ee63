/// The app's own id for an account.
public struct AccountID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    CustomStringConvertible
{
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
    public static func < (a: AccountID, b: AccountID) -> Bool { a.rawValue < b.rawValue }
}

/// The app's user. One or more identities map to one account; data the app
/// keeps for a person (favourites) is keyed to the account.
public struct Account: Hashable, Sendable, Codable, Identifiable {
    public var id: AccountID
    public var name: String
    public var identities: [LinkedIdentity]

    public init(id: AccountID, name: String, identities: [LinkedIdentity] = []) {
        self.id = id
        self.name = name
        self.identities = identities
    }

    /// The providers this account has an identity at, each once, sorted.
    public var providers: [ProviderID] {
        Array(Set(identities.map(\.provider))).sorted()
    }

    /// Whether any identity of the account is available right now.
    public var isAvailable: Bool { identities.contains { $0.state.isAvailable } }
}

/// Who a session is acting as: a person, or nobody.
public enum ActiveAccount: Hashable, Sendable {
    case anonymous
    case account(Account)

    /// The account, when someone is active.
    public var account: Account? {
        if case .account(let account) = self { return account }
        return nil
    }

    public var id: AccountID? { account?.id }
}

extension Account {
    /// Two accounts' names as a sentence that names both shows them: as they
    /// are, or, when they read alike (case aside), each with its number
    /// ("Ada Lovelace (account 1)"), so "Merge Ada Lovelace into Ada
    /// Lovelace" never says which is which by luck.
    public static func distinctNames(_ first: (name: String, id: AccountID), _ second: (name: String, id: AccountID)) -> (String, String) {
        guard first.name.lowercased() == second.name.lowercased(), first.id != second.id else { return (first.name, second.name) }
        return ("\(first.name) (account \(first.id))", "\(second.name) (account \(second.id))")
    }
}

