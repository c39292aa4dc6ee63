/// Typed reading of table keys. Every error names the file, the full dotted key path and a
/// line: the key's own line for a wrong type or value, the table's header line for a
/// missing key.
extension TOMLTable {
    /// The string at `key`; missing or non-string values are errors.
    public func string(_ key: String) throws(ConfigError) -> String {
        try string(from: required(key))
    }

    /// The string at `key`, or `nil` if absent; a non-string value is an error.
    public func optionalString(_ key: String) throws(ConfigError) -> String? {
        guard let entry = entry(for: key) else { return nil }
        return try string(from: entry)
    }

    /// The integer at `key`, which must lie in `range` if one is given.
    public func integer(_ key: String, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        try integer(from: required(key), in: range)
    }

    /// The integer at `key`, or `nil` if absent; it must lie in `range` if one is given.
    public func optionalInteger(_ key: String, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int? {
        guard let entry = entry(for: key) else { return nil }
        return try integer(from: entry, in: range)
    }

    /// The number at `key`; integers are accepted as well as floats.
    public func double(_ key: String) throws(ConfigError) -> Double {
        try double(from: required(key))
    }

    /// The number at `key`, or `nil` if absent; integers are accepted as well as floats.
    public func optionalDouble(_ key: String) throws(ConfigError) -> Double? {
        guard let entry = entry(for: key) else { return nil }
        return try double(from: entry)
    }

    /// The boolean at `key`.
    public func bool(_ key: String) throws(ConfigError) -> Bool {
        try bool(from: required(key))
    }

    /// The boolean at `key`, or `nil` if absent.
    public func optionalBool(_ key: String) throws(ConfigError) -> Bool? {
        guard let entry = entry(for: key) else { return nil }
        return try bool(from: entry)
    }

    /// The array at `key`, elements of any type.
    public func array(_ key: String) throws(ConfigError) -> [TOMLValue] {
        try array(from: required(key))
    }

    /// The array at `key`, or `nil` if absent.
    public func optionalArray(_ key: String) throws(ConfigError) -> [TOMLValue]? {
        guard let entry = entry(for: key) else { return nil }
        return try array(from: entry)
    }

    /// The array of strings at `key`; a non-string element is reported as `key[index]`.
    public func stringArray(_ key: String) throws(ConfigError) -> [String] {
        try stringArray(from: required(key))
    }

    /// The array of strings at `key`, or `nil` if absent.
    public func optionalStringArray(_ key: String) throws(ConfigError) -> [String]? {
        guard let entry = entry(for: key) else { return nil }
        return try stringArray(from: entry)
    }

    /// The table at `key`, from a `[header]`, dotted keys or an inline table.
    public func table(_ key: String) throws(ConfigError) -> TOMLTable {
        try table(from: required(key))
    }

    /// The table at `key`, or `nil` if absent.
    public func optionalTable(_ key: String) throws(ConfigError) -> TOMLTable? {
        guard let entry = entry(for: key) else { return nil }
        return try table(from: entry)
    }

    /// The tables at `key`, from `[[key]]` headers or an array of inline tables.
    public func tableArray(_ key: String) throws(ConfigError) -> [TOMLTable] {
        try tableArray(from: required(key))
    }

    /// The tables at `key`, or `nil` if absent.
    public func optionalTableArray(_ key: String) throws(ConfigError) -> [TOMLTable]? {
        guard let entry = entry(for: key) else { return nil }
        return try tableArray(from: entry)
    }

    /// The sub-tables of this table in file order, skipping keys with other values.
    public func tables() -> [(name: String, table: TOMLTable)] {
        entries.compactMap { entry in entry.value.tableValue.map { (entry.key, $0) } }
    }

    /// The sub-tables of this table in file order; any key that is not a table is an error.
    public func allTables() throws(ConfigError) -> [(name: String, table: TOMLTable)] {
        var result: [(name: String, table: TOMLTable)] = []
        for entry in entries { result.append((entry.key, try table(from: entry))) }
        return result
    }

    // MARK: - Conversions

    private func required(_ key: String) throws(ConfigError) -> Entry {
        guard let entry = entry(for: key) else { throw error(key: key, "missing required key") }
        return entry
    }

    private func mismatch(_ value: TOMLValue, expected: String, key: String, line: Int) -> ConfigError {
        ConfigError(file: file, line: line, key: key, message: "expected \(expected), found \(value.kindDescription)")
    }

    private func string(from entry: Entry) throws(ConfigError) -> String {
        guard case .string(let value) = entry.value else {
            throw mismatch(entry.value, expected: "a string", key: keyPath(entry.key), line: entry.line)
        }
        return value
    }

    private func integer(from entry: Entry, in range: ClosedRange<Int>?) throws(ConfigError) -> Int {
        guard case .integer(let wide) = entry.value else {
            throw mismatch(entry.value, expected: "an integer", key: keyPath(entry.key), line: entry.line)
        }
        let lower = range.map { Int64($0.lowerBound) } ?? Int64(Int.min)
        let upper = range.map { Int64($0.upperBound) } ?? Int64(Int.max)
        guard wide >= lower && wide <= upper else {
            let bounds = range.map { "from \($0.lowerBound) to \($0.upperBound)" } ?? "that fits in \(Int.bitWidth) bits"
            throw error(key: entry.key, "expected an integer \(bounds), found \(wide)")
        }
        return Int(wide)
    }

    private func double(from entry: Entry) throws(ConfigError) -> Double {
        guard let value = entry.value.doubleValue else {
            throw mismatch(entry.value, expected: "a number", key: keyPath(entry.key), line: entry.line)
        }
        return value
    }

    private func bool(from entry: Entry) throws(ConfigError) -> Bool {
        guard case .bool(let value) = entry.value else {
            throw mismatch(entry.value, expected: "a boolean (true or false)", key: keyPath(entry.key), line: entry.line)
        }
        return value
    }

    private func array(from entry: Entry) throws(ConfigError) -> [TOMLValue] {
        guard case .array(let values) = entry.value else {
            throw mismatch(entry.value, expected: "an array", key: keyPath(entry.key), line: entry.line)
        }
        return values
    }

    private func stringArray(from entry: Entry) throws(ConfigError) -> [String] {
        var strings: [String] = []
        for (index, value) in try array(from: entry).enumerated() {
            guard case .string(let string) = value else {
                let path = KeyPath.element(keyPath(entry.key), index)
                throw mismatch(value, expected: "a string", key: path, line: entry.line)
            }
            strings.append(string)
        }
        return strings
    }

    private func table(from entry: Entry) throws(ConfigError) -> TOMLTable {
        guard case .table(let table) = entry.value else {
            throw mismatch(entry.value, expected: "a table", key: keyPath(entry.key), line: entry.line)
        }
        return table
    }

    private func tableArray(from entry: Entry) throws(ConfigError) -> [TOMLTable] {
        var tables: [TOMLTable] = []
        for (index, value) in try array(from: entry).enumerated() {
            guard case .table(let table) = value else {
                let path = KeyPath.element(keyPath(entry.key), index)
                throw mismatch(value, expected: "a table", key: path, line: entry.line)
            }
            tables.append(table)
        }
        return tables
    }
}
