import ProcessKit

extension PseudoTerminal {
    /// What the backend wrote since the last look: reads until nothing more
    /// came for 50 ms (at most 2 s).
    func output() -> [UInt8] { readUntilQuiet(quiet: 0.05, limit: 2) }
}

extension Array where Element == UInt8 {
    /// Whether `text`'s UTF-8 bytes occur in these bytes.
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if Array(self[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    /// The bytes with escape characters shown as `⎋`, for messages.
    var shown: String { String(decoding: self, as: UTF8.self).replacingEscapes() }
}

extension String {
    func replacingEscapes() -> String {
        var result = ""
        for scalar in unicodeScalars { result += scalar == "\u{1B}" ? "⎋" : String(scalar) }
        return result
    }
}
