import Synchronization

/// The grapheme clusters too long to pack into a `Glyph`, each stored once
/// for the life of the process and named by its index. Keyed by bytes, not
/// by `String` equality, so canonically equivalent spellings stay apart.
final class GlyphPool: Sendable {
    /// The pool every glyph uses.
    static let shared = GlyphPool()

    private struct Contents {
        var strings: [String] = []
        var indices: [[UInt8]: Int] = [:]
    }

    private let contents = Mutex(Contents())

    /// The index of the cluster spelled by `bytes` (valid UTF-8), added
    /// if new.
    func index(of bytes: [UInt8]) -> Int {
        contents.withLock { contents in
            if let index = contents.indices[bytes] { return index }
            let index = contents.strings.count
            contents.strings.append(String(decoding: bytes, as: UTF8.self))
            contents.indices[bytes] = index
            return index
        }
    }

    /// The cluster at `index`.
    func string(at index: Int) -> String {
        contents.withLock { $0.strings[index] }
    }
}
