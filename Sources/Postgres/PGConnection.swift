import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to a PostgreSQL server through libpq. Statements take
/// their values only as parameters (`$1`, `$2`…), never spliced into the
/// text. Not for use by two threads at once: its owner serialises.
public final class PGConnection: @unchecked Sendable {
    /// libpq's connection; nil once closed.
    var handle: OpaquePointer?
    /// The longest a statement (with its round trips) may take, in seconds;
    /// nil waits as long as the operating system does. Past it the
    /// statement is cancelled at the server and the connection dropped
    /// (`PGError.Kind.timedOut`): a paused server, or a link that swallows
    /// packets, keeps TCP alive for many minutes.
    public var deadline: Double?
    /// The server, as `postgresql://USER@HOST:PORT/DATABASE` (no password).
    public let server: String
    /// The server's version as libpq reports it (150004 for 15.4).
    public let serverVersion: Int32

    /// The oldest server this client supports (PostgreSQL 12).
    public static let minimumServerVersion: Int32 = 120_000

    private init(handle: OpaquePointer, server: String) {
        self.handle = handle
        self.server = server
        serverVersion = PQserverVersion(handle)
    }

    deinit { close() }

    /// Connects to the server `url` names (a `postgresql://` URL or a
    /// `key=value` string). The password comes from where libpq finds it
    /// (the URL, `~/.pgpass`, `PGPASSFILE`, `passfile=`, a client
    /// certificate); settings the URL leaves out get Switchboard's defaults:
    /// `connect_timeout` of `timeout` seconds and TCP keepalives, so a
    /// station notices a server that went away, and, to a server that is
    /// not this machine's, `sslmode=verify-full` when neither the URL nor
    /// `PGSSLMODE` asks for a mode (`PGTransport`): no TLS, or a
    /// certificate the station does not trust, and nothing is sent. The
    /// session is set to UTC and ISO dates, so timestamps read back alike
    /// everywhere.
    ///
    /// With a `deadline` (seconds), connecting and each later statement
    /// are given that long (`deadline`); the connection's own lock waits
    /// (`lock_timeout`) end a little before it, so a lock held elsewhere
    /// is answered by the server as busy, the connection kept.
    public static func connect(
        _ url: String, timeout: Int = 5, deadline: Double? = nil, applicationName: String = "switchboard",
        minimumVersion: Int32 = minimumServerVersion
    ) throws(PGError) -> PGConnection {
        // libpq's connect_timeout is whole seconds, at least 2.
        let timeout = deadline.map { max(2, Int($0.rounded(.up))) } ?? timeout
        let transport: PGTransport
        switch Self.transport(of: url) {
        case .success(let found): transport = found
        case .failure(let error): throw error
        }
        let server = transport.server
        let settings = Self.settings(url, timeout: timeout, transport: transport, applicationName: applicationName)
        let connection: OpaquePointer? = withCStrings(settings.map(\.0)) { keywords in
            withCStrings(settings.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw PGError(.other, server: server, detail: "out of memory") }
        let effective = describe(connection) ?? server
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PGError(PGError.classify(connectionMessage: message), server: effective, detail: message)
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        // Statements are sent and awaited with a deadline (`answer(sent:)`): nothing blocks in libpq.
        PQsetnonblocking(connection, 1)
        let result = PGConnection(handle: connection, server: effective)
        result.deadline = deadline
        guard result.serverVersion >= minimumVersion else {
            let version = result.serverVersion
            throw PGError(.serverTooOld(version: "\(version / 10000).\(version % 10000)"), server: effective, detail: "")
        }
        try result.execute(Self.settings(deadline: deadline, local: false))
        return result
    }

    /// The settings every session runs with, as `SET` statements (`SET
    /// LOCAL` for one transaction, where a transaction pooler may hand the
    /// next one another server session): UTC and ISO dates, so timestamps
    /// read back alike everywhere. With a `deadline`, a lock held elsewhere
    /// is answered as busy a little before it, and a transaction left open
    /// by a client gone silent (a paused station holding the fleet's write
    /// lock) is ended by the server after five deadlines, so no paused
    /// machine holds every other's writes.
    public static func settings(deadline: Double?, local: Bool) -> String {
        let set = local ? "SET LOCAL" : "SET"
        let lockWait = deadline.map {
            "; \(set) lock_timeout = \(Int($0 * 900)); \(set) idle_in_transaction_session_timeout = \(Int($0 * Self.idleTransactionDeadlines * 1000))"
        } ?? ""
        return "\(set) TimeZone = 'UTC'; \(set) DateStyle = 'ISO, YMD'; \(set) IntervalStyle = 'iso_8601'" + lockWait
    }

    /// Whether a statement run again is kept prepared on the server (see
    /// `preparedName`); off behind a transaction pooler, whose next
    /// transaction may run in another server session.
    public var preparesStatements = true

    /// The server a URL names, without its password; or why it is no URL
    /// (libpq's words, which never repeat the text given).
    public static func describe(_ url: String) -> Result<String, PGError> {
        parameters(of: url).map { values in
            format(user: values["user"], host: values["host"] ?? values["hostaddr"], port: values["port"], database: values["dbname"])
        }
    }

    /// What libpq is handed for `url`, in order. Earlier keywords are
    /// defaults: the URL (expanded in place as `dbname`) overrides them, so
    /// `sslmode=verify-full` goes in only when nothing asked for a mode.
    static func settings(_ url: String, timeout: Int, transport: PGTransport, applicationName: String = "switchboard") -> [(String, String)] {
        [("connect_timeout", String(timeout)), ("keepalives", "1"), ("keepalives_idle", "5"),
         ("keepalives_interval", "2"), ("keepalives_count", "3"), ("fallback_application_name", applicationName)]
            + (transport.requestedMode == nil ? [("sslmode", transport.mode)] : [])
            + [("dbname", url), ("client_encoding", "UTF8")]
    }

    /// Whether the connection's traffic is encrypted (TLS).
    public var usesTLS: Bool { handle.map { PQsslInUse($0) == 1 } ?? false }

    /// libpq's words about a URL with every quoted part (which repeats the
    /// URL, password and all) left out.
    static func withoutQuotes(_ words: String) -> String {
        var result = "", quoted = false
        for character in words {
            if character == "\"" {
                if !quoted { result += "\"…\"" }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        return result
    }

    private static func describe(_ connection: OpaquePointer) -> String? {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            pointer.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return format(user: text(PQuser(connection)), host: text(PQhost(connection)), port: text(PQport(connection)), database: text(PQdb(connection)))
    }

    private static func format(user: String?, host: String?, port: String?, database: String?) -> String {
        let clean = { (text: String) in PGError.clean(text) }
        return "postgresql://" + (user.map { clean($0) + "@" } ?? "") + clean(host ?? "localhost") + (port.map { ":" + clean($0) } ?? "")
            + "/" + clean(database ?? user ?? "")
    }

    /// Closes the connection. Calling it again does nothing.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Whether the connection is still up, as far as libpq knows.
    public var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Whether no transaction is open (nor failed) on it.
    public var isIdle: Bool { handle.map { PQtransactionStatus($0) == PQTRANS_IDLE } ?? false }

    /// The connection's socket, to watch for notifications; -1 when closed.
    public var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    /// Runs one statement with its parameters and returns its rows.
    public func query(_ sql: String, _ parameters: [PGParameter] = []) throws(PGError) -> PGResult {
        let handle = try open()
        if parameters.contains(where: { $0.text?.utf8.contains(0) == true }) {
            throw PGError(.other, server: server, detail: "a text holding a NUL character cannot be stored in PostgreSQL")
        }
        let types = parameters.map(\.type)
        let name = try preparedName(sql, types, on: handle)
        let sent: Int32 = withCStrings(parameters.map(\.text)) { values in
            types.withUnsafeBufferPointer { types in
                if let name {
                    PQsendQueryPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, sql, Int32(parameters.count), types.baseAddress, values, nil, nil, 0)
                }
            }
        }
        do {
            return try answer(sent: sent)
        } catch where error.isStalePlan {
            // Another process changed a table this statement reads (a newer
            // version migrated): the server refuses the kept plan. The next
            // use prepares it afresh.
            statements.forgetPrepared()
            throw error
        }
    }

    /// The statements this connection has run, and those it keeps prepared.
    private var statements = PreparedStatements()

    /// The name `sql` is kept prepared under on this connection, preparing
    /// it on its second use; nil to run it unnamed. A statement that runs
    /// again and again (a chooser's or station's reads and writes) is then
    /// parsed and planned by the server once, not on every use; one a
    /// short command runs once costs no extra round trip.
    private func preparedName(_ sql: String, _ types: [UInt32], on handle: OpaquePointer) throws(PGError) -> String? {
        guard preparesStatements else { return nil }
        switch statements.use(sql, types) {
        case .unnamed: return nil
        case .prepared(let name): return name
        case .prepare(let name):
            let sent = types.withUnsafeBufferPointer { PQsendPrepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
            _ = try answer(sent: sent)
            statements.prepared(sql, types, as: name)
            return name
        }
    }

    /// Runs statements that take no parameters (several may be given, `;`
    /// between them), in one round trip; returns the last one's result (or
    /// throws the first one's error: the server runs none after it).
    @discardableResult
    public func execute(_ sql: String) throws(PGError) -> PGResult {
        let handle = try open()
        return try answer(sent: PQsendQuery(handle, sql))
    }

    /// `LISTEN` on `channel` (any text; quoted as an identifier).
    public func listen(_ channel: String) throws(PGError) {
        try execute("LISTEN " + quoted(channel))
    }

    /// `text` as a string literal for a statement, quoted by libpq for this
    /// connection's settings; nil when libpq cannot (a closed connection).
    public func literal(_ text: String) -> String? {
        guard let handle, let quoted = PQescapeLiteral(handle, text, text.utf8.count) else { return nil }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// `password` as the server keeps it for `role` (SCRAM-SHA-256),
    /// computed here, as psql's `\password` does: a statement that sets it
    /// carries no clear text to the server, its log or `pg_stat_activity`.
    public func scramVerifier(_ password: String, role: String) throws(PGError) -> String {
        guard let handle, let verifier = PQencryptPasswordConn(handle, password, role, "scram-sha-256") else {
            throw PGError(.other, server: server, detail: handle.map { String(cString: PQerrorMessage($0)) } ?? "the connection is closed")
        }
        defer { PQfreemem(verifier) }
        return String(cString: verifier)
    }

    /// How many statement deadlines a transaction may sit idle, its client
    /// silent, before the server ends the session (`idle_in_transaction_session_timeout`).
    public static let idleTransactionDeadlines = 5.0

    /// `channel` as an identifier: in double quotes, with inner ones doubled.
    public func quoted(_ channel: String) -> String {
        "\"" + channel.replacingAll("\"", with: "\"\"") + "\""
    }

    /// Reads what the server sent without blocking; throws when the
    /// connection is gone.
    public func consumeInput() throws(PGError) {
        guard let handle, PQconsumeInput(handle) == 1, isConnected else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "the connection is closed"
            throw PGError(.connectionLost, server: server, detail: message)
        }
    }

    /// The notifications received so far, oldest first.
    public func notifications() -> [PGNotification] {
        guard let handle else { return [] }
        var received: [PGNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(PGNotification(
                channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
                process: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return received
    }
}
