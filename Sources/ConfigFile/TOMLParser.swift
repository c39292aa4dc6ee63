/// Parses TOML 1.0 text into a ``TOMLDocument`` that remembers the line of every key.
///
/// Supported: comments, `[table]`, `[[array.of.tables]]`, bare, quoted and dotted keys,
/// all four string forms, integers (decimal, `0x`, `0o`, `0b`, with `_`), floats (including
/// `inf` and `nan`), booleans, arrays and inline tables. Dates and times are rejected with
/// a "not supported" error.
public enum TOMLParser {
    /// Parses `text`; `file` is the name used in errors and stored in the document.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> TOMLDocument {
        var parser = Parser(text: text, file: file)
        return try parser.parseDocument()
    }
}

/// The state of one parse: the cursor, the tree being built and the current table.
struct Parser {
    /// How deeply arrays, inline tables and dotted keys may nest.
    static let maxDepth = 100

    var cursor: Cursor
    let root = TableNode(path: "", origin: .root, line: 1)
    var current: TableNode

    init(text: String, file: String) {
        cursor = Cursor(text: text, file: file)
        current = root
    }

    var file: String { cursor.file }

    /// Parses the whole input line by line.
    mutating func parseDocument() throws(ConfigError) -> TOMLDocument {
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.current else { break }
            switch byte {
            case ASCII.hash, ASCII.newline, ASCII.carriageReturn:
                try cursor.expectLineEnd(after: "comment")
            case ASCII.openBracket:
                try parseHeader()
            default:
                try parseKeyValue(into: current, depth: 0)
                try cursor.expectLineEnd(after: "value")
            }
        }
        return TOMLDocument(file: file, root: root.finish(file: file))
    }

    /// Parses `[a.b]` or `[[a.b]]` and makes its table current.
    private mutating func parseHeader() throws(ConfigError) {
        let line = cursor.line
        cursor.advance()
        let isArray = cursor.current == ASCII.openBracket
        if isArray { cursor.advance() }
        let keys = try parseKey()
        for _ in 0..<(isArray ? 2 : 1) {
            guard cursor.current == ASCII.closeBracket else {
                let what = isArray ? "']]' to close the array-of-tables header" : "']' to close the table header"
                throw cursor.error("expected \(what), found \(cursor.describeCurrent())")
            }
            cursor.advance()
        }
        try cursor.expectLineEnd(after: "table header")
        current = isArray
            ? try root.appendTableArray(keys, line: line, file: file)
            : try root.defineTable(keys, line: line, file: file)
    }

    /// Parses `key = value` into `table`. Errors inside the value name the key.
    mutating func parseKeyValue(into table: TableNode, depth: Int) throws(ConfigError) {
        let line = cursor.line
        let keys = try parseKey()
        guard cursor.current == ASCII.equals else {
            throw cursor.error("expected '=' after key, found \(cursor.describeCurrent())")
        }
        cursor.advance()
        cursor.skipWhitespace()
        var path = table.path
        for part in keys { path = KeyPath.join(path, part.name) }
        let value: TOMLValue
        do throws(ConfigError) {
            value = try parseValue(path: path, depth: depth + keys.count)
        } catch {
            throw error.naming(path)
        }
        try table.insert(keys, value: value, line: line, file: file)
    }

    /// Parses a possibly dotted key and the whitespace after it.
    mutating func parseKey() throws(ConfigError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            cursor.skipWhitespace()
            let position = cursor.position
            parts.append(KeyPart(name: try parseSimpleKey(), position: position))
            if parts.count > Self.maxDepth {
                throw cursor.error("key has too many parts (more than \(Self.maxDepth))", at: position)
            }
            cursor.skipWhitespace()
            guard cursor.current == ASCII.dot else { return parts }
            cursor.advance()
        }
    }

    /// Parses one bare or quoted key.
    private mutating func parseSimpleKey() throws(ConfigError) -> String {
        if cursor.isAtMultilineString {
            throw cursor.error("a multi-line string cannot be used as a key")
        }
        switch cursor.current {
        case ASCII.quote?:
            return try cursor.parseBasicString()
        case ASCII.apostrophe?:
            return try cursor.parseLiteralString()
        case let byte? where ASCII.isBareKey(byte):
            let begin = cursor.index
            while let next = cursor.current, ASCII.isBareKey(next) { cursor.advance() }
            return cursor.text(from: begin, to: cursor.index)
        default:
            throw cursor.error("expected a key, found \(cursor.describeCurrent())")
        }
    }
}
