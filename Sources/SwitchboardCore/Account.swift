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

/// Which terminal an active account belongs to: `SWITCHBOARD_SESSION`, else
/// the controlling terminal, else the machine-wide default.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The machine-wide default, used by sessions that have not chosen.
    public static let machine = SessionKey(unchecked: "*")

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// A named session; `nil` when the name is empty, longer than 256 bytes,
    /// `*`, or holds control characters.
    public init?(_ name: String) {
        guard !name.isEmpty, name != "*", name.utf8.count <= 256,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        self.rawValue = name
    }

    /// Restores a key read back from storage, the machine key included.
    public init(stored rawValue: String) { self.rawValue = rawValue }

    public var isMachine: Bool { rawValue == "*" }

    public var description: String { isMachine ? "machine default" : rawValue }

    /// Picks the session key by this rule: an explicit name, then
    /// `SWITCHBOARD_SESSION`, then the terminal's name, then the machine default.
    public static func resolve(
        explicit: String?, environment: [String: String], terminalName: String?
    ) -> Result<SessionKey, SessionKeyError> {
        if let explicit {
            return SessionKey(explicit).map(Result.success) ?? .failure(.invalid(explicit))
        }
        if let name = environment["SWITCHBOARD_SESSION"], !name.isEmpty {
            return SessionKey(name).map(Result.success) ?? .failure(.invalid(name))
        }
        if let terminalName, let key = SessionKey(terminalName) { return .success(key) }
        return .success(.machine)
    }
}

/// A session name that cannot be used.
public enum SessionKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String)
    public var description: String {
        switch self {
        case .invalid(let name):
            "invalid session name \(String(reflecting: name)): use 1–256 printable characters other than \"*\""
        }
    }
}
