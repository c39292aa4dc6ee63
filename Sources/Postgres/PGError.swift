/// What went wrong talking to a PostgreSQL server, in words, naming the
/// server (`postgresql://USER@HOST:PORT/DATABASE`) and never a password.
public struct PGError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds a person can act on.
    public enum Kind: Sendable, Hashable {
        /// No server answered there: refused, host unknown, unreachable, timed out.
        case refused
        /// The server turned the role away: a wrong or missing password, no
        /// `pg_hba.conf` line, no such role.
        case authenticationFailed
        /// The server's TLS certificate is not one the client trusts (another
        /// CA, another host name, or no root certificate to check it with).
        case certificateNotTrusted
        /// The server answered without TLS where the connection requires it
        /// (`sslmode` `require` or stronger, the default to another machine).
        case noTLS
        /// The server has no database of that name.
        case databaseMissing
        /// The server is older than the client supports; its version.
        case serverTooOld(version: String)
        /// An open connection went away (the server stopped or was cut off).
        case connectionLost
        /// The server did not answer within the connection's deadline (a
        /// paused or overloaded server, a link that drops packets).
        case timedOut
        /// Every connection slot of the server, or of the role, is taken.
        case full
        /// A lock the statement needed was held elsewhere past its wait
        /// (`lock_timeout`), or the server cancelled it for taking too long.
        case busy
        /// The server refused a statement, with its SQLSTATE code.
        case statement(sqlState: String)
        /// The connection string is not one libpq understands.
        case badURL
        /// Anything else.
        case other
    }

    public let kind: Kind
    /// The server, as `postgresql://USER@HOST:PORT/DATABASE` (no password).
    public let server: String
    /// libpq's or the server's own words (first line, controls removed).
    public let detail: String

    public init(_ kind: Kind, server: String, detail: String) {
        self.kind = kind
        self.server = server
        self.detail = Self.clean(detail)
    }

    /// What the kind is called in messages.
    public var words: String {
        switch kind {
        case .refused: "connection refused (no server answered there)"
        case .authenticationFailed: "authentication failed"
        case .certificateNotTrusted: "certificate not trusted"
        case .noTLS: "the server offers no TLS, which the connection requires (nothing was sent)"
        case .databaseMissing: "database missing"
        case .serverTooOld(let version): "server too old (PostgreSQL \(version); Switchboard needs 12 or newer)"
        case .connectionLost: "connection to the server lost"
        case .timedOut: "the server does not answer"
        case .full: "the server is full (no connection free)"
        case .busy: "the store is busy (another holds its lock)"
        case .statement(let state): "the server refused a statement (SQLSTATE \(state))"
        case .badURL: "not a PostgreSQL URL"
        case .other: "cannot use the server"
        }
    }

    public var description: String {
        detail.isEmpty ? "\(server): \(words)" : "\(server): \(words): \(detail)"
    }

    /// Whether the server refused a kept (prepared) statement's plan because
    /// a table it reads changed shape since it was prepared.
    public var isStalePlan: Bool { kind == .statement(sqlState: "0A000") && detail.contains("cached plan") }

    /// Whether the server could not be reached or was lost: a command says
    /// the store is offline, a chooser retries.
    public var isOffline: Bool {
        switch kind {
        case .refused, .connectionLost, .timedOut, .full, .busy: true
        default: false
        }
    }

    /// The first non-empty line of `text`, without libpq's severity prefix,
    /// control characters or more than 300 characters.
    static func clean(_ text: String) -> String {
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingSpaces() }.first { !$0.isEmpty } ?? ""
        var words = line
        for prefix in ["FATAL:", "ERROR:", "PANIC:"] where words.hasPrefix(prefix) {
            words = String(words.dropFirst(prefix.count)).trimmingSpaces()
        }
        let shown = String(String.UnicodeScalarView(words.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
        return shown.count > 300 ? String(shown.prefix(300)) + "…" : shown
    }

    /// The kind libpq's message for a failed connection describes.
    static func classify(connectionMessage message: String) -> Kind {
        let text = message.lowercased()
        if text.contains("server does not support ssl") { return .noTLS }
        if text.contains("certificate verify failed") || text.contains("does not match host name")
            || text.contains("root certificate file") || text.contains("certificate") && text.contains("not trusted")
        {
            return .certificateNotTrusted
        }
        if text.contains("password authentication failed") || text.contains("no password supplied")
            || text.contains("authentication failed") || text.contains("no pg_hba.conf entry")
            || text.contains("role \"") && text.contains("does not exist") || text.contains("password is missing")
        {
            return .authenticationFailed
        }
        if text.contains("database \"") && text.contains("does not exist") { return .databaseMissing }
        if text.contains("too many clients") || text.contains("too many connections")
            || text.contains("remaining connection slots are reserved")
        {
            return .full
        }
        if text.contains("connection refused") || text.contains("could not translate host name")
            || text.contains("timeout expired") || text.contains("no such file or directory")
            || text.contains("network is unreachable") || text.contains("no route to host")
            || text.contains("the database system is starting up") || text.contains("the database system is shutting down")
        {
            return .refused
        }
        return .other
    }

    /// The kind a statement's SQLSTATE describes.
    static func classify(sqlState: String) -> Kind {
        if sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03" { return .connectionLost }
        if sqlState.hasPrefix("28") { return .authenticationFailed }
        if sqlState == "53300" { return .full }
        if sqlState == "55P03" || sqlState == "57014" { return .busy }
        if sqlState == "3D000" { return .databaseMissing }
        return .statement(sqlState: sqlState)
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension String {
    func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}
