/// Reading unquoted values: booleans, integers, floats, and recognising dates to reject them.
extension Cursor {
    /// Reads a boolean, integer or float token at the cursor.
    mutating func parseScalar() throws(ConfigError) -> TOMLValue {
        let start = position
        let begin = index
        while let byte = current, !Self.isValueDelimiter(byte) { advance() }
        let token = Array(bytes[begin..<index])
        guard !token.isEmpty else {
            throw error("expected a value, found \(describeCurrent())", at: start)
        }
        switch text(from: begin, to: index) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if Self.looksLikeDateOrTime(token) {
            throw error("dates and times are not supported", at: start)
        }
        if let value = try parseInteger(token, start: start) { return .integer(value) }
        if let value = try parseFloat(token, start: start) { return .float(value) }
        throw error(Self.invalidValueMessage(token), at: start)
    }

    private static func isValueDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn,
             ASCII.comma, ASCII.closeBracket, ASCII.closeBrace, ASCII.hash:
            return true
        default:
            return false
        }
    }

    /// `1979-05-27...` or `07:32:00...`.
    private static func looksLikeDateOrTime(_ token: [UInt8]) -> Bool {
        let digits = token.prefix(while: ASCII.isDigit).count
        guard digits < token.count else { return false }
        let next = token[digits]
        return (digits == 4 && next == ASCII.minus) || (digits == 2 && next == UInt8(ascii: ":"))
    }

    /// An integer, `nil` if the token is not integer-shaped, or an error if it is but is invalid.
    private func parseInteger(_ token: [UInt8], start: SourcePosition) throws(ConfigError) -> Int64? {
        var digits = token[...]
        let sign = digits.first == ASCII.plus || digits.first == ASCII.minus ? digits.popFirst() : nil
        var radix: UInt64 = 10
        let prefixes: [UInt8: UInt64] = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2]
        if digits.count >= 2, digits.first == UInt8(ascii: "0"), let base = prefixes[digits[digits.startIndex + 1]] {
            radix = base
            digits = digits.dropFirst(2)
            if sign != nil {
                throw error("invalid value '\(Self.shown(token))': a sign is not allowed with 0x, 0o or 0b", at: start)
            }
        }
        let base = radix
        let isDigit: (UInt8) -> Bool = { byte in
            ASCII.hexValue(byte).map { UInt64($0) < base } ?? false
        }
        guard Self.isDigitSequence(digits, isDigit: isDigit) else {
            if radix == 10 { return nil }
            throw error("invalid value '\(Self.shown(token))'", at: start)
        }
        if radix == 10 && digits.count > 1 && digits.first == UInt8(ascii: "0") {
            throw error("invalid value '\(Self.shown(token))': leading zeros are not allowed", at: start)
        }
        var magnitude: UInt64 = 0
        for byte in digits where byte != ASCII.underscore {
            let (product, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = product.addingReportingOverflow(UInt64(ASCII.hexValue(byte) ?? 0))
            guard !overflow1 && !overflow2 else { throw outOfRange(token, start) }
            magnitude = sum
        }
        if sign == ASCII.minus {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw outOfRange(token, start) }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw outOfRange(token, start) }
        return Int64(magnitude)
    }

    /// A float, or `nil` if the token does not have TOML float syntax.
    private func parseFloat(_ token: [UInt8], start: SourcePosition) throws(ConfigError) -> Double? {
        var rest = token[...]
        if rest.first == ASCII.plus || rest.first == ASCII.minus { rest = rest.dropFirst() }
        let integerPart = rest.prefix { ASCII.isDigit($0) || $0 == ASCII.underscore }
        guard Self.isDigitSequence(integerPart, isDigit: ASCII.isDigit) else { return nil }
        if integerPart.count > 1 && integerPart.first == UInt8(ascii: "0") {
            throw error("invalid value '\(Self.shown(token))': leading zeros are not allowed", at: start)
        }
        rest = rest.dropFirst(integerPart.count)
        var hasFraction = false
        if rest.first == ASCII.dot {
            let fraction = rest.dropFirst().prefix { ASCII.isDigit($0) || $0 == ASCII.underscore }
            guard Self.isDigitSequence(fraction, isDigit: ASCII.isDigit) else { return nil }
            rest = rest.dropFirst(1 + fraction.count)
            hasFraction = true
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == ASCII.plus || rest.first == ASCII.minus { rest = rest.dropFirst() }
            guard Self.isDigitSequence(rest, isDigit: ASCII.isDigit) else { return nil }
            rest = rest.dropFirst(rest.count)
        } else if !hasFraction {
            return nil
        }
        guard rest.isEmpty else { return nil }
        let cleaned = String(decoding: token.filter { $0 != ASCII.underscore }, as: UTF8.self)
        guard let value = Double(cleaned) else { return nil }
        guard value.isFinite else {
            throw error("float '\(Self.shown(token))' is out of range", at: start)
        }
        return value
    }

    /// One or more digits, each underscore between two digits.
    private static func isDigitSequence(_ bytes: ArraySlice<UInt8>, isDigit: (UInt8) -> Bool) -> Bool {
        guard let first = bytes.first, let last = bytes.last, isDigit(first), isDigit(last) else { return false }
        var previousWasUnderscore = false
        for byte in bytes {
            if byte == ASCII.underscore {
                if previousWasUnderscore { return false }
                previousWasUnderscore = true
            } else {
                guard isDigit(byte) else { return false }
                previousWasUnderscore = false
            }
        }
        return true
    }

    private func outOfRange(_ token: [UInt8], _ start: SourcePosition) -> ConfigError {
        error("integer '\(Self.shown(token))' is out of range for 64 bits", at: start)
    }

    private static func invalidValueMessage(_ token: [UInt8]) -> String {
        let word = shown(token)
        if let first = token.first, ASCII.isLetter(first), token.allSatisfy(ASCII.isBareKey) {
            return "invalid value '\(word)' (strings must be quoted: \"\(word)\")"
        }
        return "invalid value '\(word)'"
    }

    /// The token for messages, shortened if long.
    private static func shown(_ token: [UInt8]) -> String {
        let text = String(decoding: token, as: UTF8.self)
        return text.count > 40 ? text.prefix(40) + "…" : text
    }
}
