/// A place in the source: its 1-based line and byte offsets. The column is only worked out
/// when an error is reported, so recording places stays cheap on very long lines.
struct SourcePosition: Sendable, Equatable {
    let line: Int
    let lineStart: Int
    let index: Int
}

/// A reading position over the UTF-8 bytes of a TOML source that keeps track of lines,
/// so every error can name its line and column.
///
/// Only ``consumeLineBreak()`` moves past a line break; everything else stays on one line.
struct Cursor {
    let bytes: [UInt8]
    let file: String
    private(set) var index: Int
    private(set) var line = 1
    private var lineStart: Int

    init(text: String, file: String) {
        bytes = Array(text.utf8)
        self.file = file
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        lineStart = index
    }

    /// The byte at the cursor, or `nil` at the end of the input.
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The byte `offset` bytes ahead, or `nil` past the end.
    func peek(_ offset: Int) -> UInt8? {
        let target = index + offset
        return target < bytes.count ? bytes[target] : nil
    }

    /// Whether the input at the cursor starts with `sequence`.
    func isAt(_ sequence: [UInt8]) -> Bool {
        bytes[index...].starts(with: sequence)
    }

    /// Moves ahead by `count` bytes on the current line.
    mutating func advance(by count: Int = 1) {
        index = min(index + count, bytes.count)
    }

    /// The current place.
    var position: SourcePosition {
        SourcePosition(line: line, lineStart: lineStart, index: index)
    }

    /// Consumes `\n` or `\r\n`, returning whether there was one; a lone `\r` is an error.
    mutating func consumeLineBreak() throws(ConfigError) -> Bool {
        if current == ASCII.newline {
            index += 1
        } else if current == ASCII.carriageReturn {
            guard peek(1) == ASCII.newline else {
                throw error("carriage return must be followed by a line feed")
            }
            index += 2
        } else {
            return false
        }
        line += 1
        lineStart = index
        return true
    }

    /// Skips spaces and tabs.
    mutating func skipWhitespace() {
        while current == ASCII.space || current == ASCII.tab { index += 1 }
    }

    /// Skips a comment up to (not including) the end of the line, if the cursor is at `#`.
    mutating func skipComment() throws(ConfigError) {
        guard current == ASCII.hash else { return }
        index += 1
        while let byte = current, byte != ASCII.newline {
            if byte == ASCII.carriageReturn && peek(1) == ASCII.newline { return }
            if ASCII.isControl(byte) {
                throw error("control character \(ASCII.codePoint(byte)) is not allowed in a comment")
            }
            index += 1
        }
    }

    /// Skips whitespace, comments and line breaks, as allowed between array elements.
    mutating func skipTrivia() throws(ConfigError) {
        repeat {
            skipWhitespace()
            try skipComment()
        } while try consumeLineBreak()
    }

    /// Expects only whitespace and an optional comment before the end of the line or input.
    mutating func expectLineEnd(after what: String) throws(ConfigError) {
        skipWhitespace()
        try skipComment()
        if current == nil { return }
        if try consumeLineBreak() { return }
        throw error("expected end of line after \(what), found \(describeCurrent())")
    }

    /// A syntax error at `position`, or at the cursor.
    func error(_ message: String, at position: SourcePosition? = nil) -> ConfigError {
        let place = position ?? self.position
        var column = 1
        for byte in bytes[place.lineStart..<place.index] where byte & 0xC0 != 0x80 { column += 1 }
        return ConfigError(file: file, line: place.line, column: column, message: message)
    }

    /// The character at the cursor as shown in messages: `'x'`, `U+0007`, "end of line", "end of file".
    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte == ASCII.newline || (byte == ASCII.carriageReturn && peek(1) == ASCII.newline) {
            return "end of line"
        }
        if ASCII.isControl(byte) { return ASCII.codePoint(byte) }
        var end = index + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + text(from: index, to: end) + "'"
    }

    /// The source text between two byte offsets.
    func text(from start: Int, to end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
