/// Parsing values: strings and scalars via the cursor, arrays and inline tables here.
extension Parser {
    /// Parses the value at the cursor; `path` is the dotted path of the key it belongs to.
    mutating func parseValue(path: String, depth: Int) throws(ConfigError) -> TOMLValue {
        if depth > Self.maxDepth {
            throw cursor.error("values are nested too deeply (more than \(Self.maxDepth) levels)")
        }
        switch cursor.current {
        case ASCII.quote?, ASCII.apostrophe?:
            return .string(try cursor.parseString())
        case ASCII.openBracket?:
            return try parseArray(path: path, depth: depth)
        case ASCII.openBrace?:
            return try parseInlineTable(path: path, depth: depth)
        default:
            return try cursor.parseScalar()
        }
    }

    /// Parses `[ v, v, ... ]`, which may span lines, contain comments and end with a comma.
    private mutating func parseArray(path: String, depth: Int) throws(ConfigError) -> TOMLValue {
        let start = cursor.position
        cursor.advance()
        var elements: [TOMLValue] = []
        while true {
            try cursor.skipTrivia()
            guard let byte = cursor.current else { throw cursor.error("unterminated array", at: start) }
            if byte == ASCII.closeBracket {
                cursor.advance()
                return .array(elements)
            }
            let elementPath = KeyPath.element(path, elements.count)
            do throws(ConfigError) {
                elements.append(try parseValue(path: elementPath, depth: depth + 1))
            } catch {
                throw error.naming(elementPath)
            }
            try cursor.skipTrivia()
            switch cursor.current {
            case ASCII.comma?:
                cursor.advance()
            case ASCII.closeBracket?:
                cursor.advance()
                return .array(elements)
            case nil:
                throw cursor.error("unterminated array", at: start)
            default:
                throw cursor.error("expected ',' or ']' after array element, found \(cursor.describeCurrent())")
            }
        }
    }

    /// Parses `{ k = v, ... }` on one line, without a trailing comma, as TOML 1.0 requires.
    private mutating func parseInlineTable(path: String, depth: Int) throws(ConfigError) -> TOMLValue {
        let start = cursor.position
        let node = TableNode(path: path, origin: .inline, line: start.line)
        cursor.advance()
        cursor.skipWhitespace()
        if cursor.current == ASCII.closeBrace {
            cursor.advance()
            return .table(node.finish(file: file))
        }
        while true {
            cursor.skipWhitespace()
            try checkInlineTableContinues(start: start)
            if cursor.current == ASCII.closeBrace {
                throw cursor.error("trailing comma is not allowed in an inline table")
            }
            try parseKeyValue(into: node, depth: depth + 1)
            cursor.skipWhitespace()
            try checkInlineTableContinues(start: start)
            switch cursor.current {
            case ASCII.comma?:
                cursor.advance()
            case ASCII.closeBrace?:
                cursor.advance()
                return .table(node.finish(file: file))
            default:
                throw cursor.error("expected ',' or '}' in inline table, found \(cursor.describeCurrent())")
            }
        }
    }

    /// Rejects the end of input and line breaks inside an inline table.
    private func checkInlineTableContinues(start: SourcePosition) throws(ConfigError) {
        switch cursor.current {
        case nil:
            throw cursor.error("unterminated inline table", at: start)
        case ASCII.newline?, ASCII.carriageReturn?, ASCII.hash?:
            throw cursor.error("inline table must be on one line (missing '}'?)")
        default:
            return
        }
    }
}
