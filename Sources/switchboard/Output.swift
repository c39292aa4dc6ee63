import Foundation
import SwitchboardCore
import TerminalUI

/// `{"provider", "subject", "name", "email", "state"}` of `accounts --json`.
struct IdentityJSON: Encodable {
    let provider: String
    let subject: String
    @Null var name: String?
    @Null var email: String?
    let state: String

    init(_ linked: LinkedIdentity) {
        provider = linked.provider.rawValue
        subject = linked.identity.subject
        name = linked.displayName
        email = linked.email
        state = linked.state.rawValue
    }
}

/// An element of `accounts --json`.
struct AccountJSON: Encodable {
    let id: Int64
    let name: String
    let active: Bool
    let identities: [IdentityJSON]
    /// Whether the account has a PIN.
    let pin: Bool

    init(_ account: Account, active: Bool, pin: Bool = false) {
        id = account.id.rawValue
        name = account.name
        self.active = active
        identities = account.identities.map(IdentityJSON.init)
        self.pin = pin
    }
}

/// `status --json`: `{"session", "active": null | {"id", "name", "identities"}}`.
struct StatusJSON: Encodable {
    struct Active: Encodable {
        let id: Int64
        let name: String
        let identities: [IdentityJSON]
    }

    let session: String
    @Null var active: Active?

    init(session: SessionKey, active: ActiveAccount) {
        self.session = session.rawValue
        self.active = active.account.map {
            Active(id: $0.id.rawValue, name: $0.name, identities: $0.identities.map(IdentityJSON.init))
        }
    }
}

/// An optional that is written as `null` when absent, where synthesized
/// `Encodable` would leave the key out: scripts see every key every time.
@propertyWrapper
struct Null<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A value as one line of JSON with sorted keys, in which no raw control
/// or bidirectional character can reach a terminal (they are `\u` escapes).
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self).jsonEscapingTerminalControls
}

/// Human text for one account: `Ada Lovelace  github ✓, google ⚠ expired`.
func describe(_ account: Account, protected: Bool = false, nameWidth: Int = 0) -> String {
    // Two identities of one provider carry their login or email: "demo ✓ ada, demo ✓ ada2".
    let names = IdentityNames.distinguishing(account.identities)
    let identities = account.identities.map { linked in
        "\(linked.provider) \(linked.state.mark)" + (linked.state == .authorized ? "" : " " + linked.state.word)
            + (names[linked.identity].map { " " + $0.displaySafe } ?? "")
    }
    let name = account.name.displaySafe + (protected ? " 🔒" : "")
    let padding = String(repeating: " ", count: max(0, nameWidth - name.displayWidth))
    return "\(name)\(padding)  \(identities.joined(separator: ", "))"
}

/// Human text for who a session acts as.
func describe(_ active: ActiveAccount, in session: SessionKey) -> String {
    switch active {
    case .anonymous: "Anonymous in session \(session)"
    case .account(let account): "\(describe(account))  (account \(account.id), session \(session))"
    }
}
