/// A TOML table: keys in file order, each with its value and the line it was defined on.
///
/// Every table knows the file it came from, its full dotted ``path`` and the ``line`` of its
/// header, so the typed accessors in this module can report precise errors.
public struct TOMLTable: Sendable, Equatable {
    /// One key of a table, with its value and source line.
    public struct Entry: Sendable, Equatable {
        /// The key, unquoted (the last part of a dotted key).
        public let key: String
        /// The value.
        public let value: TOMLValue
        /// The 1-based line of the key, or of the header for tables defined by one.
        public let line: Int

        /// Creates an entry.
        public init(key: String, value: TOMLValue, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }

    /// The file name the table came from.
    public let file: String
    /// The full dotted key path of the table, such as `providers.work`; empty for the root.
    public let path: String
    /// The line of the table's header or defining key; `nil` for the root table.
    public let line: Int?
    /// The entries in the order they appear in the file.
    public let entries: [Entry]
    private let index: [String: Int]

    /// Creates a table. Keys must be unique.
    public init(file: String = "", path: String = "", line: Int? = nil, entries: [Entry]) {
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() {
            precondition(index.updateValue(position, forKey: entry.key) == nil, "duplicate key \(entry.key)")
        }
        self.file = file
        self.path = path
        self.line = line
        self.entries = entries
        self.index = index
    }

    /// The keys in file order.
    public var keys: [String] { entries.map(\.key) }

    /// The number of keys.
    public var count: Int { entries.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, or `nil` if absent.
    public subscript(key: String) -> TOMLValue? {
        entry(for: key)?.value
    }

    /// The entry for `key`, or `nil` if absent.
    public func entry(for key: String) -> Entry? {
        index[key].map { entries[$0] }
    }

    /// The full dotted path of `key` in this table, such as `providers.work.client_id`.
    public func keyPath(_ key: String) -> String {
        KeyPath.join(path, key)
    }

    /// Tables are equal when they have the same keys with equal values; order, file,
    /// path and lines are ignored.
    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.entries.allSatisfy { entry in rhs[entry.key] == entry.value }
    }
}

extension TOMLTable: ExpressibleByDictionaryLiteral {
    /// Creates a table without source positions, mainly for comparisons in tests.
    public init(dictionaryLiteral elements: (String, TOMLValue)...) {
        self.init(entries: elements.map { Entry(key: $0.0, value: $0.1, line: 0) })
    }
}
