/// Validation helpers for tables: fixed sets of values and keys, and custom errors that
/// carry the right file, line and key path.
extension TOMLTable {
    /// The string at `key`, which must be one of `allowed`.
    public func string(_ key: String, oneOf allowed: [String]) throws(ConfigError) -> String {
        let value = try string(key)
        try check(value, oneOf: allowed, key: key)
        return value
    }

    /// The string at `key`, or `nil` if absent; if present it must be one of `allowed`.
    public func optionalString(_ key: String, oneOf allowed: [String]) throws(ConfigError) -> String? {
        guard let value = try optionalString(key) else { return nil }
        try check(value, oneOf: allowed, key: key)
        return value
    }

    /// Fails on the first key not in `allowed`, at that key's line, suggesting a near miss:
    /// `providers.work.clientid: unknown key (did you mean "client_id"?)`.
    public func rejectUnknownKeys(allowed: [String]) throws(ConfigError) {
        for entry in entries where !allowed.contains(entry.key) {
            let hint = Suggestion.closest(to: entry.key, among: allowed)
                .map { "did you mean \"\($0)\"?" }
                ?? (allowed.isEmpty ? "no keys are allowed here" : "allowed keys: " + allowed.joined(separator: ", "))
            throw error(key: entry.key, "unknown key (\(hint))")
        }
    }

    /// An error about `key` of this table: at the key's line if present, otherwise at the
    /// table's header line. Use it for checks of your own, such as URL formats.
    public func error(key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: entry(for: key)?.line ?? line, key: keyPath(key), message: message)
    }

    /// An error about this table as a whole, at its header line.
    public func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: line, key: path.isEmpty ? nil : path, message: message)
    }

    private func check(_ value: String, oneOf allowed: [String], key: String) throws(ConfigError) {
        guard !allowed.contains(value) else { return }
        let choices = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
        // The value itself is not repeated: it may be a secret put under the wrong key.
        var message = "expected one of \(choices), found something else"
        if let near = Suggestion.closest(to: value, among: allowed) { message += " (did you mean \"\(near)\"?)" }
        throw error(key: key, message)
    }
}
