/// Which session an active account belongs to: a name given explicitly
/// (`--session`, `SWITCHBOARD_SESSION`), else this process's terminal, else
/// the machine-wide default.
///
/// A terminal's session lives as long as that terminal: its key carries the
/// terminal's `lifetime`, and a choice stored under another lifetime (a
/// closed terminal whose name the kernel gave to a new one) is not this
/// one's. Two keys are the same session when their names are the same; the
/// lifetime only says whether a stored choice still belongs to it.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible {
    /// The name people see: `pts/3`, `lab-bench`, or `*` for the machine default.
    public let rawValue: String
    /// For a terminal's session, whose lifetime it is (`TerminalIdentity.lifetime`);
    /// nil for a named session and the machine default.
    public let lifetime: String?

    /// The machine-wide default: what processes with no terminal and no
    /// session named act as.
    public static let machine = SessionKey(unchecked: "*", lifetime: nil)

    private init(unchecked rawValue: String, lifetime: String?) {
        self.rawValue = rawValue
        self.lifetime = lifetime
    }

    /// A named session; nil when the name is not one (`problem(with:)`).
    public init?(_ name: String) {
        guard Self.problem(with: name) == nil else { return nil }
        self.init(unchecked: name, lifetime: nil)
    }

    /// A terminal's own session.
    public init?(terminal: TerminalIdentity) {
        guard Self.problem(with: terminal.name) == nil else { return nil }
        self.init(unchecked: terminal.name, lifetime: terminal.lifetime)
    }

    /// Restores a key read back from storage, the machine key included.
    public init(stored rawValue: String, lifetime: String? = nil) { self.init(unchecked: rawValue, lifetime: lifetime) }

    public var isMachine: Bool { rawValue == "*" }

    /// The name, safe to show: no terminal or bidirectional control reaches
    /// a terminal through it, whatever the store holds.
    public var description: String { isMachine ? "machine default" : rawValue.displaySafe }

    public static func == (a: SessionKey, b: SessionKey) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Why `name` cannot name a session, or nil when it can: 1 to 256 bytes
    /// of valid UTF-8 (a replacement character is what invalid bytes became),
    /// not blank, no white space at either end (a look-alike of another
    /// name), no control, format or line-separating characters, not `*`.
    public static func problem(with name: String) -> String? {
        if name.isEmpty || name.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { return "it is blank" }
        if let edge = [name.unicodeScalars.first, name.unicodeScalars.last].compactMap({ $0 }).first(where: { $0.properties.isWhitespace }) {
            return "it begins or ends with white space (U+\(String(edge.value, radix: 16, uppercase: true)))"
        }
        if name == "*" { return "\"*\" is the machine default" }
        if name.utf8.count > 256 { return "it is longer than 256 bytes" }
        if name.unicodeScalars.contains("\u{FFFD}") { return "it is not valid UTF-8" }
        let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        if name.unicodeScalars.contains(where: { $0.isTerminalControl || hidden.contains($0.properties.generalCategory) }) {
            return "it holds control characters"
        }
        return nil
    }

    /// Picks the session key by this rule: an explicit name, then
    /// `SWITCHBOARD_SESSION`, then `terminal`, then the machine default. `*`
    /// names the machine default. A name that is `terminal`'s own (as `env`
    /// and `exec` pass on) is that terminal's session, lifetime and all.
    public static func resolve(
        explicit: String?, environment: [String: String], terminal: TerminalIdentity?
    ) -> Result<SessionKey, SessionKeyError> {
        if let name = explicit ?? environment["SWITCHBOARD_SESSION"].flatMap({ $0.isEmpty ? nil : $0 }) {
            if name == "*" { return .success(.machine) }
            if let terminal, terminal.name == name, let key = SessionKey(terminal: terminal) { return .success(key) }
            return SessionKey(name).map(Result.success) ?? .failure(.invalid(name, problem: problem(with: name) ?? ""))
        }
        if let terminal, let key = SessionKey(terminal: terminal) { return .success(key) }
        return .success(.machine)
    }

    /// Whether `explicit` or the environment names a session (the machine
    /// default included), as writing to one with no terminal requires.
    public static func isNamed(explicit: String?, environment: [String: String]) -> Bool {
        explicit != nil || !(environment["SWITCHBOARD_SESSION"] ?? "").isEmpty
    }
}

/// A session name that cannot be used.
public enum SessionKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String, problem: String)
    public var description: String {
        switch self {
        case .invalid(let name, let problem):
            "invalid session name \(String(reflecting: name).displaySafe): \(problem); use 1–256 printable characters (\"*\" names the machine default)"
        }
    }
}
