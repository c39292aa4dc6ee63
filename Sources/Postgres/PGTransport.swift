import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// How a connection to the server a URL names is kept private on the wire:
/// the `sslmode` asked for (in the URL, or libpq's `PGSSLMODE`), and
/// whether every address it may reach is this machine's own (loopback, or
/// a Unix socket). With no `sslmode` asked for, a server that is not this
/// machine's is reached with `verify-full`: TLS, its certificate signed by
/// a CA the station trusts and naming the host. A weaker mode asked for is
/// honoured, with a warning (`warning`).
public struct PGTransport: Sendable, Hashable {
    /// The server, as `postgresql://USER@HOST:PORT/DATABASE` (no password).
    public let server: String
    /// The `sslmode` given in the URL, or else in `PGSSLMODE`; nil when none.
    public let requestedMode: String?
    /// Whether every host the URL (or `PGHOST`/`PGHOSTADDR`) names is a
    /// Unix socket, `localhost`, an address in 127.0.0.0/8 or `::1`. A
    /// named service (`service=`, `PGSERVICE`) without a host here counts
    /// as another machine: its file may name any.
    public let isLoopback: Bool

    /// The mode the connection uses: the one asked for, else `verify-full`
    /// to another machine, else libpq's own default (`prefer`) on this one.
    public var mode: String { requestedMode ?? (isLoopback ? "prefer" : "verify-full") }

    /// The modes that check the server's name against a trusted CA's certificate.
    static let verifying = "verify-full"

    /// What to say on standard error at each start when the traffic to
    /// another machine is not `verify-full`; nil when it is, or stays here.
    public var warning: String? {
        guard !isLoopback, let requestedMode, requestedMode != Self.verifying else { return nil }
        let what = switch requestedMode {
        case "disable": "without TLS: every token read or written crosses the network in clear"
        case "allow", "prefer": "with TLS only if the server offers it: anyone between the station and \(server) can strip it and read every token"
        case "require": "with TLS but without checking the server's certificate: anyone between can pose as the server"
        case "verify-ca": "with TLS, the server's certificate checked against the CA but not its name"
        default: "with sslmode=\(PGError.clean(requestedMode))"
        }
        return "the store \(server) is reached with sslmode=\(PGError.clean(requestedMode)), \(what); use sslmode=verify-full (see docs/FLEET.md)"
    }
}

extension PGConnection {
    /// The parameters `url` (a `postgresql://` URL or a `key=value`
    /// string) gives, read as libpq reads them (`PQconninfoParse`: percent
    /// escapes decoded, `user:password@` and `password=` alike); or why it
    /// cannot be read (libpq's words, which never repeat the text given).
    /// Only what the URL itself says: no defaults, no environment.
    public static func parameters(of url: String) -> Result<[String: String], PGError> {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &message) else {
            let words = message.map { String(cString: $0) } ?? "cannot be read"
            if let message { PQfreemem(message) }
            return .failure(PGError(.badURL, server: "the store's URL", detail: withoutQuotes(words)))
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return .success(values)
    }

    /// `url` as another role would give it: the same server, database and
    /// settings with `user` in place of its user, and no password or
    /// password file (a station keeps its own in `~/.pgpass`). Written as
    /// a URL, `postgresql://USER@HOST:PORT/DATABASE?…`, each part
    /// percent-encoded; nil when libpq cannot read `url`.
    public static func url(_ url: String, as user: String) -> String? {
        guard case .success(var values) = parameters(of: url) else { return nil }
        for dropped in ["user", "password", "passfile"] { values[dropped] = nil }
        func encoded(_ text: String) -> String {
            let hex = Array("0123456789ABCDEF")
            var result = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    result.append(Character(Unicode.Scalar(byte)))
                default:
                    result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
                }
            }
            return result
        }
        var authority = encoded(user) + "@"
        // A plain host name or address goes in the authority; a socket folder or a list, in the query.
        if let host = values["host"], !host.isEmpty, !host.contains("/"), !host.contains(","), !host.contains(":") {
            authority += encoded(host)
            values["host"] = nil
            if let port = values["port"], !port.isEmpty, !port.contains(",") {
                authority += ":" + encoded(port)
                values["port"] = nil
            }
        }
        let database = values.removeValue(forKey: "dbname").map(encoded) ?? ""
        let query = values.sorted { $0.key < $1.key }.map { encoded($0.key) + "=" + encoded($0.value) }.joined(separator: "&")
        return "postgresql://" + authority + "/" + database + (query.isEmpty ? "" : "?" + query)
    }

    /// Whether `url` carries a password in any spelling libpq reads (its
    /// user part, `password=`, percent-escaped or not). A URL libpq cannot
    /// read counts as carrying one: nothing can tell, and it connects nowhere.
    public static func carriesPassword(_ url: String) -> Bool {
        switch parameters(of: url) {
        case .success(let values): return !(values["password"] ?? "").isEmpty
        case .failure: return true
        }
    }

    /// How a connection to `url` is protected (see `PGTransport`);
    /// `environment` is the process's (libpq reads `PGSSLMODE`, `PGHOST`,
    /// `PGHOSTADDR` and `PGSERVICE` from it).
    public static func transport(
        of url: String, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    ) -> Result<PGTransport, PGError> {
        let values: [String: String]
        switch parameters(of: url) {
        case .success(let parsed): values = parsed
        case .failure(let error): return .failure(error)
        }
        let server: String
        switch describe(url) {
        case .success(let name): server = name
        case .failure(let error): return .failure(error)
        }
        func given(_ keyword: String, _ variable: String) -> String? {
            (values[keyword] ?? environment(variable)).flatMap { $0.isEmpty ? nil : $0 }
        }
        let hosts = given("host", "PGHOST").map(Self.list) ?? []
        let addresses = given("hostaddr", "PGHOSTADDR").map(Self.list) ?? []
        let service = given("service", "PGSERVICE")
        // Where each try connects: the address when given, else the host; none given is the default Unix socket.
        let targets = (0..<max(hosts.count, addresses.count)).map { index in
            let address = index < addresses.count ? addresses[index] : ""
            return address.isEmpty ? (index < hosts.count ? hosts[index] : "") : address
        }
        let loopback = targets.isEmpty ? service == nil : targets.allSatisfy(isLoopback)
        return .success(PGTransport(server: server, requestedMode: given("sslmode", "PGSSLMODE"), isLoopback: loopback))
    }

    /// A libpq list (`a,b,c`) as its entries.
    private static func list(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
    }

    /// Whether one host libpq would connect to is this machine: the default
    /// socket (empty), a Unix socket's folder (`/…`, or `@…` for an abstract
    /// one), `localhost`, 127.0.0.0/8, `::1` or 127.0.0.0/8 mapped to IPv6.
    static func isLoopback(_ host: String) -> Bool {
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] && bytes[12] == 127
    }
}
