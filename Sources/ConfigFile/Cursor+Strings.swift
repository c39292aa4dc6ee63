/// Reading the four TOML string forms: basic, literal, and their multi-line variants.
extension Cursor {
    private static let tripleQuote: [UInt8] = [ASCII.quote, ASCII.quote, ASCII.quote]
    private static let tripleApostrophe: [UInt8] = [ASCII.apostrophe, ASCII.apostrophe, ASCII.apostrophe]

    /// Whether the cursor is at the start of a multi-line string (`"""` or `'''`).
    var isAtMultilineString: Bool {
        isAt(Self.tripleQuote) || isAt(Self.tripleApostrophe)
    }

    /// Reads any string form; the cursor must be at `"` or `'`.
    mutating func parseString() throws(ConfigError) -> String {
        if isAt(Self.tripleQuote) { return try parseMultiline(basic: true) }
        if isAt(Self.tripleApostrophe) { return try parseMultiline(basic: false) }
        return current == ASCII.quote ? try parseBasicString() : try parseLiteralString()
    }

    /// Reads a single-line basic string `"..."` with escapes.
    mutating func parseBasicString() throws(ConfigError) -> String {
        let start = position
        advance()
        var bytes: [UInt8] = []
        while true {
            guard let byte = current, !isAtLineBreak else { throw error("unterminated string", at: start) }
            switch byte {
            case ASCII.quote:
                advance()
                return String(decoding: bytes, as: UTF8.self)
            case ASCII.backslash:
                try parseEscape(into: &bytes)
            default:
                try checkNotControl(byte, literal: false)
                bytes.append(byte)
                advance()
            }
        }
    }

    /// Reads a single-line literal string `'...'`, which has no escapes.
    mutating func parseLiteralString() throws(ConfigError) -> String {
        let start = position
        advance()
        let begin = index
        while true {
            guard let byte = current, !isAtLineBreak else { throw error("unterminated string", at: start) }
            if byte == ASCII.apostrophe {
                let value = text(from: begin, to: index)
                advance()
                return value
            }
            try checkNotControl(byte, literal: true)
            advance()
        }
    }

    /// Reads `"""..."""` or `'''...'''`. A line break right after the opening delimiter is
    /// dropped, line breaks become `\n`, and up to two quotes may precede the closing delimiter.
    private mutating func parseMultiline(basic: Bool) throws(ConfigError) -> String {
        let start = position
        let delimiter = basic ? ASCII.quote : ASCII.apostrophe
        advance(by: 3)
        _ = try consumeLineBreak()
        var bytes: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated multi-line string", at: start) }
            if byte == delimiter && peek(1) == delimiter && peek(2) == delimiter {
                var count = 3
                while count < 5 && peek(count) == delimiter { count += 1 }
                bytes.append(contentsOf: repeatElement(delimiter, count: count - 3))
                advance(by: count)
                return String(decoding: bytes, as: UTF8.self)
            }
            if try consumeLineBreak() {
                bytes.append(ASCII.newline)
            } else if basic && byte == ASCII.backslash {
                if try !skipLineEndingBackslash() { try parseEscape(into: &bytes) }
            } else {
                try checkNotControl(byte, literal: !basic)
                bytes.append(byte)
                advance()
            }
        }
    }

    /// At a backslash followed only by whitespace up to the end of the line: skips it and all
    /// whitespace and line breaks after it, returning `true`. Otherwise does nothing.
    private mutating func skipLineEndingBackslash() throws(ConfigError) -> Bool {
        var offset = 1
        while peek(offset) == ASCII.space || peek(offset) == ASCII.tab { offset += 1 }
        let next = peek(offset)
        guard next == ASCII.newline || (next == ASCII.carriageReturn && peek(offset + 1) == ASCII.newline)
        else { return false }
        advance(by: offset)
        repeat { skipWhitespace() } while try consumeLineBreak()
        return true
    }

    /// Reads an escape sequence starting at the backslash and appends its UTF-8 bytes.
    private mutating func parseEscape(into bytes: inout [UInt8]) throws(ConfigError) {
        let start = position
        advance()
        guard let letter = current, !isAtLineBreak else {
            throw error("invalid escape sequence: backslash at end of line", at: start)
        }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "r"): 0x0D, ASCII.quote: ASCII.quote,
            ASCII.backslash: ASCII.backslash,
        ]
        if let replacement = simple[letter] {
            bytes.append(replacement)
            advance()
        } else if letter == UInt8(ascii: "u") || letter == UInt8(ascii: "U") {
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            let scalar = try parseUnicodeEscape(digits: digits, start: start)
            bytes.append(contentsOf: String(scalar).utf8)
        } else {
            let shown = letter >= 0x20 && letter < 0x7F ? "'\\\(Character(Unicode.Scalar(letter)))'"
                : "(backslash followed by \(describeCurrent()))"
            throw error("invalid escape sequence \(shown)", at: start)
        }
    }

    /// Reads the hex digits of `\uXXXX` or `\UXXXXXXXX`; the cursor is at `u` or `U`.
    private mutating func parseUnicodeEscape(digits: Int, start: SourcePosition) throws(ConfigError) -> Unicode.Scalar {
        let name = digits == 4 ? "\\u" : "\\U"
        advance()
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = current, let digit = ASCII.hexValue(byte) else {
                throw error("invalid escape sequence: \(name) needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("invalid escape sequence: \(ASCII.codePoint(value)) is not a Unicode scalar value", at: start)
        }
        return scalar
    }

    /// Whether the cursor is at `\n` or `\r\n`.
    private var isAtLineBreak: Bool {
        current == ASCII.newline || (current == ASCII.carriageReturn && peek(1) == ASCII.newline)
    }

    private func checkNotControl(_ byte: UInt8, literal: Bool) throws(ConfigError) {
        guard ASCII.isControl(byte) else { return }
        let advice = literal ? "is not allowed in a literal string" : "must be escaped in a string"
        throw error("control character \(ASCII.codePoint(byte)) \(advice)")
    }
}
