/// What git asks a credential helper (gitcredentials(7)): `key=value`
/// lines, ended by a blank line or the end of the input. Only what a helper
/// needs to decide whose token to give is kept; every other attribute git
/// sends (`capability[]`, `state[]`, `wwwauth[]`, newer ones) is read and
/// passed over, as git's own helpers do with what they do not know.
///
/// Nothing in it is trusted: it is whatever reached standard input.
public struct GitCredentialRequest: Hashable, Sendable {
    /// `protocol`: `https`, `http`, …
    public var scheme: String?
    /// `host`, with `:port` when the URL had one.
    public var host: String?
    /// `path`, sent only with `credential.useHttpPath`.
    public var path: String?
    /// `username`, when the URL or an earlier helper gave one.
    public var username: String?
    /// `password`: for `erase` and `store`, the one git used.
    public var password: String?

    public init(scheme: String? = nil, host: String? = nil, path: String? = nil, username: String? = nil, password: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.path = path
        self.username = username
        self.password = password
    }

    /// The host as a credential may be given for: nil when it is missing,
    /// empty, or holds a control character, white space or anything else
    /// no host name or address holds (a host git would never send).
    public var checkedHost: String? {
        guard let host, !host.isEmpty, host.utf8.count <= 255 + 8 else { return nil }
        let allowed = host.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // digits and letters
            case 0x2D, 0x2E, 0x3A, 0x5B, 0x5D, 0x5F: true  // - . : [ ] _
            default: false
            }
        }
        return allowed ? host : nil
    }
}

/// Why an input was refused whole: nothing in it is answered.
public enum GitCredentialRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A line longer than `GitCredentialReader.lineLimit` bytes.
    case lineTooLong(line: Int)
    /// A NUL byte, which no attribute holds.
    case nul(line: Int)
    /// More than `GitCredentialReader.inputLimit` bytes before the end.
    case inputTooLong

    public var description: String {
        switch self {
        case .lineTooLong(let line): "line \(line) of the credential request is longer than \(GitCredentialReader.lineLimit) bytes; nothing was answered"
        case .nul(let line): "line \(line) of the credential request holds a NUL byte; nothing was answered"
        case .inputTooLong: "the credential request is longer than \(GitCredentialReader.inputLimit) bytes; nothing was answered"
        }
    }
}

/// Reads a request a line at a time, as the lines arrive, so that a helper
/// stops at the blank line (git may keep its end of the pipe open) and
/// never holds more than a line of an over-long input.
public struct GitCredentialReader: Sendable {
    /// The longest line taken, in bytes (its `\n` not counted): 64 KiB.
    public static let lineLimit = 65_536
    /// The most bytes read before the request ends: 1 MiB.
    public static let inputLimit = 1 << 20

    /// What has been read so far.
    public private(set) var request = GitCredentialRequest()
    private var lines = 0
    private var total = 0

    public init() {}

    /// What to do after a line.
    public enum Step: Hashable, Sendable {
        /// Read another line.
        case more
        /// The request is complete (a blank line).
        case done
        /// Refused: answer nothing.
        case refused(GitCredentialRefusal)
    }

    /// Takes one line, without its `\n`. `truncated` says the line was
    /// longer than the bytes given (the reader kept only a prefix).
    public mutating func take(_ line: some Collection<UInt8>, truncated: Bool = false) -> Step {
        lines += 1
        total += line.count + 1
        if truncated || line.count > Self.lineLimit { return .refused(.lineTooLong(line: lines)) }
        if total > Self.inputLimit { return .refused(.inputTooLong) }
        if line.contains(0) { return .refused(.nul(line: lines)) }
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }  // a CR before the LF, as git's own reader drops it
        if bytes.isEmpty { return .done }
        guard let equals = bytes.firstIndex(of: 0x3D), equals > 0 else { return .more }  // no key: ignored
        let key = String(decoding: bytes[..<equals], as: UTF8.self)
        let value = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        switch key {
        case "protocol": request.scheme = value
        case "host": request.host = value
        case "path": request.path = value
        case "username": request.username = value
        case "password": request.password = value
        case "url": take(url: value)
        default: break  // capability[], state[], wwwauth[], password_expiry_utc, …: not needed here
        }
        return .more
    }

    /// `url=`: git's shorthand for protocol, host and path (and a user).
    /// It replaces what was given before it, as it does in git. It is read
    /// as git reads it (`credential_from_url`), so that the host whose token
    /// is given is the host git sends it to: the authority ends at the
    /// first `/`, `?` or `#`; a user is what comes before the first `@` in
    /// it (up to a `:`); user and host are percent-decoded.
    /// (`https://evil.example#@github.com/` is evil.example's.)
    private mutating func take(url: String) {
        guard let schemeEnd = url.firstRange(of: "://") else { return }
        request = GitCredentialRequest(scheme: String(url[..<schemeEnd.lowerBound]))
        var rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let at = authority.firstIndex(of: "@") {
            let user = authority[..<at]
            request.username = Self.decoded(user.prefix { $0 != ":" })
            authority = authority[authority.index(after: at)...]
        }
        request.host = Self.decoded(authority)
        let path = rest.drop { $0 == "/" }
        if !path.isEmpty { request.path = String(path) }
    }

    /// `%XX` as the byte it stands for, as git's `url_decode` reads it (any
    /// other `%` stays as it is).
    static func decoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads a whole input: its lines up to the first blank one, or all of it.
    public static func read(_ bytes: some Collection<UInt8>) -> Result<GitCredentialRequest, GitCredentialRefusal> {
        var reader = GitCredentialReader()
        var rest = bytes[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: 0x0A)
            switch reader.take(rest[..<(end ?? rest.endIndex)]) {
            case .more: break
            case .done: return .success(reader.request)
            case .refused(let refusal): return .failure(refusal)
            }
            guard let end else { break }
            rest = rest[rest.index(after: end)...]
        }
        return .success(reader.request)
    }
}

/// A helper's answer to `get`: the attributes git fills in.
public struct GitCredentialAnswer: Hashable, Sendable {
    public var username: String
    public var password: String
    /// `password_expiry_utc`: when the password stops working, in seconds
    /// since 1970 (git 2.41 and later drop it then; older ones ignore it).
    public var expiresAt: Int64?

    public init(username: String, password: String, expiresAt: Int64? = nil) {
        self.username = username
        self.password = password
        self.expiresAt = expiresAt
    }

    /// The lines git reads, or nil when a value could not be written as one
    /// (a line break, a NUL or another control character in it, or empty):
    /// nothing is then answered rather than something git would misread.
    public var text: String? {
        for value in [username, password] {
            guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        }
        var lines = "username=\(username)\npassword=\(password)\n"
        if let expiresAt { lines += "password_expiry_utc=\(expiresAt)\n" }
        return lines
    }
}
