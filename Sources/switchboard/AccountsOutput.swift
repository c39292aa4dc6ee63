import Foundation
import SwitchboardCore

/// `accounts` and `accounts --json` written as the accounts are read: a
/// buffer of `capacity` bytes goes to standard output whenever it fills, so
/// the memory used does not grow with the roster. The JSON is byte for byte
/// what `jsonLine` makes of the whole array (`AccountJSON`), written by
/// hand because encoding a hundred thousand values one by one with
/// `JSONEncoder` costs seconds.
struct AccountsOutput {
    private let output: any TextOutput
    private let json: Bool
    private var buffer: [UInt8] = []
    private var count = 0
    private let details: Details?
    static let capacity = 64 * 1024

    /// What `accounts -v` adds to each identity: its token's facts (no
    /// token), with the time its expiry is told from.
    struct Details {
        let facts: [Identity: TokenFacts]
        let now: Moment
    }

    init(to output: any TextOutput, json: Bool, details: Details? = nil) {
        self.output = output
        self.json = json
        self.details = details
        buffer.reserveCapacity(Self.capacity + 4096)
        if json { buffer.append(UInt8(ascii: "[")) }
    }

    /// Names are padded to this many columns, so the identities line up
    /// (a longer name pushes its own line's, as the list is written as read).
    static let nameWidth = 20

    /// Adds one account, `active` when it is the session's; `protected` when it has a PIN (🔒).
    mutating func add(_ account: Account, active: Bool, protected: Bool = false) {
        if json {
            if count > 0 { buffer.append(UInt8(ascii: ",")) }
            if let details {
                // -v: encoded whole, one account at a time (people read it; its speed matters less).
                buffer.append(contentsOf: jsonLine(VerboseAccountJSON(account, active: active, pin: protected, details: details)).utf8)
            } else {
                appendJSON(account, active: active, pin: protected)
            }
        } else {
            buffer.append(contentsOf: "\(active ? "●" : " ") \(account.id)\t\(describe(account, protected: protected, nameWidth: Self.nameWidth))\n".utf8)
            if let details {
                // Per identity, as `gh auth status` tells them: one line each, under its account.
                for identity in account.identities {
                    buffer.append(contentsOf: "    \(IdentityFacts.line(identity, facts: details.facts[identity.identity], now: details.now))\n".utf8)
                }
            }
        }
        count += 1
        if buffer.count >= Self.capacity { flush() }
    }

    /// Ends the list: the closing bracket, or the words for an empty roster.
    mutating func finish() {
        if json {
            buffer.append(contentsOf: "]\n".utf8)
        } else if count == 0 {
            buffer.append(contentsOf: "No accounts yet. Sign in to add one.\n".utf8)
        }
        flush()
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        output.write(utf8: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: JSON, as JSONEncoder (sorted keys, slashes as they are) and then `jsonEscapingTerminalControls` write it

    /// `{"active","id","identities":[{"email","name","provider","state","subject"}],"name","pin"}`.
    private mutating func appendJSON(_ account: Account, active: Bool, pin: Bool) {
        append(active ? "{\"active\":true,\"id\":" : "{\"active\":false,\"id\":")
        appendNumber(account.id.rawValue)
        append(",\"identities\":[")
        for (index, identity) in account.identities.enumerated() {
            append(index == 0 ? "{\"email\":" : ",{\"email\":")
            appendJSON(identity.email)
            append(",\"name\":")
            appendJSON(identity.displayName)
            append(",\"provider\":")
            appendJSON(identity.provider.rawValue)
            append(",\"state\":")
            appendJSON(identity.state.rawValue)
            append(",\"subject\":")
            appendJSON(identity.identity.subject)
            append("}")
        }
        append("],\"name\":")
        appendJSON(account.name)
        append(pin ? ",\"pin\":true}" : ",\"pin\":false}")
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// A whole number in decimal, as JSONEncoder writes it.
    private mutating func appendNumber(_ value: Int64) {
        buffer.append(contentsOf: String(value).utf8)
    }

    private mutating func appendJSON(_ value: String?) {
        guard var text = value else { return append("null") }
        buffer.append(UInt8(ascii: "\""))
        let plain = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            // Runs that need no escape go in whole.
            var run = bytes.startIndex
            for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x22 || bytes[index] == 0x5C || bytes[index] == 0x7F {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                appendASCII(bytes[index])
                run = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            return true
        }
        if !plain {
            for scalar in text.unicodeScalars {
                if scalar.isASCII {
                    appendASCII(UInt8(scalar.value))
                } else if scalar.isTerminalControl {
                    appendEscape(scalar.value)
                } else {
                    buffer.append(contentsOf: UTF8.encode(scalar)!)
                }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func appendASCII(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x09: append("\\t")
        case 0x0A: append("\\n")
        case 0x0C: append("\\f")
        case 0x0D: append("\\r")
        case 0..<0x20, 0x7F: appendEscape(UInt32(byte))
        default: buffer.append(byte)
        }
    }

    /// `\uXXXX`, lower-case hex.
    private mutating func appendEscape(_ value: UInt32) {
        let digits = Array("0123456789abcdef".utf8)
        append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) { buffer.append(digits[Int((value >> UInt32(shift)) & 0xF)]) }
    }
}

/// An element of `accounts -v --json`: `AccountJSON` whose identities also
/// carry their login and their token's facts (never a token).
struct VerboseAccountJSON: Encodable {
    /// `{"provider", "subject", "name", "email", "state", "login", "tokenStored", "expiresAt", "scopes"}`.
    struct Identity: Encodable {
        let provider: String
        let subject: String
        @Null var name: String?
        @Null var email: String?
        let state: String
        @Null var login: String?
        /// Whether tokens are stored for it (that this store lets this role see).
        let tokenStored: Bool
        /// When the access token runs out (ISO 8601), if the provider said.
        @Null var expiresAt: String?
        let scopes: [String]
    }

    let id: Int64
    let name: String
    let active: Bool
    let identities: [Identity]
    let pin: Bool

    init(_ account: Account, active: Bool, pin: Bool, details: AccountsOutput.Details) {
        id = account.id.rawValue
        name = account.name
        self.active = active
        self.pin = pin
        let formatter = ISO8601DateFormatter()
        identities = account.identities.map { linked in
            let facts = details.facts[linked.identity]
            return Identity(
                provider: linked.provider.rawValue, subject: linked.identity.subject, name: linked.displayName, email: linked.email,
                state: linked.state.rawValue, login: linked.login, tokenStored: facts != nil,
                expiresAt: facts?.expiresAt.map { formatter.string(from: Date(timeIntervalSince1970: $0.secondsSince1970)) },
                scopes: facts?.scopes ?? [])
        }
    }
}
