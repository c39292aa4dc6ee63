/// One grapheme cluster met while scanning text: a range of its UTF-8
/// bytes and its width.
struct ScannedCluster {
    /// The text's UTF-8 bytes, valid while the scan runs.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offset of the cluster's first byte.
    let start: Int
    /// Offset just past the cluster's last byte.
    let end: Int
    /// Terminal columns, as `DisplayWidth.of(_:)` counts them.
    let width: Int

    /// The cluster packed for a cell.
    @inline(__always)
    var glyph: Glyph {
        if end == start &+ 1 { return Glyph(ascii: bytes[start]) }
        return Glyph(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]), width: width)
    }
}

/// Walks text one grapheme cluster at a time, skipping Unicode's grapheme
/// breaking where it cannot matter.
///
/// Two "simple" scalars in a row (see `simpleWidth(_:)`) always have a
/// cluster boundary between them, as does a control character and whatever
/// is next to it; such scalars are measured straight from their code point.
/// Anything else goes through `Character`. (CR LF is one cluster, but both
/// halves are controls of width 0, so treating them apart changes nothing a
/// caller sees.)
struct ClusterIterator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    /// Scans the clusters spelled by `bytes`, valid UTF-8.
    init(utf8 bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Calls `body` with an iterator over the clusters of `text`.
    @inline(__always)
    static func withClusters<R>(of text: some StringProtocol, _ body: (inout ClusterIterator) -> R) -> R {
        let result = text.utf8.withContiguousStorageIfAvailable { bytes in
            var iterator = ClusterIterator(utf8: bytes)
            return body(&iterator)
        }
        if let result { return result }
        var copy = String(text)  // bridged or foreign: make it native UTF-8
        return copy.withUTF8 { bytes in
            var iterator = ClusterIterator(utf8: bytes)
            return body(&iterator)
        }
    }

    /// The next cluster, or nil at the end of the text.
    @inline(__always)
    mutating func next() -> ScannedCluster? {
        let start = offset, count = bytes.count
        guard start < count else { return nil }
        let lead = bytes[start]
        if lead < 0x80 {  // ASCII then ASCII (or the end): always a boundary
            let end = start &+ 1
            if end == count || bytes[end] < 0x80 {
                offset = end
                return ScannedCluster(bytes: bytes, start: start, end: end, width: DisplayWidth.asciiWidth(lead))
            }
        }
        return nextNonASCII()
    }

    /// `next()` past its ASCII shortcut.
    private mutating func nextNonASCII() -> ScannedCluster {
        let start = offset, count = bytes.count
        let (scalar, length) = Self.decode(bytes, at: start)
        var end = start &+ length
        let width: Int
        if let simpleWidth = Self.simpleWidth(scalar),
            end == count || Self.isSimpleOrControl(Self.decode(bytes, at: end).scalar)
        {
            width = simpleWidth
        } else if Self.isControl(scalar) {
            width = 0
        } else {
            (end, width) = characterCluster(at: start)
        }
        offset = end
        return ScannedCluster(bytes: bytes, start: start, end: end, width: width)
    }

    /// The end and width of the cluster at `start`, found by Swift's own
    /// grapheme breaking over a piece of the text. A piece of at most 15
    /// bytes makes a `String` without allocating; a cluster that might run
    /// past the piece is measured again over a larger one. (UAX #29 decides
    /// each boundary from the text before it and the one scalar after it, so
    /// a cluster that ends inside the piece ends there in the whole text.)
    private func characterCluster(at start: Int) -> (end: Int, width: Int) {
        var size = 15
        while true {
            var stop = min(bytes.count, start &+ size)
            while stop < bytes.count, bytes[stop] & 0xC0 == 0x80 { stop &-= 1 }  // back to a scalar boundary
            let piece = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
            let character = piece.first!
            let end = start &+ character.utf8.count
            if end < stop || stop == bytes.count { return (end, DisplayWidth.of(character)) }
            size &*= 4
        }
    }

    /// The scalar starting at `offset` of valid UTF-8, and its length.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(bytes[offset])
        if lead < 0x80 { return (lead, 1) }
        let second = UInt32(bytes[offset &+ 1] & 0x3F)
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | second, 2) }
        let third = UInt32(bytes[offset &+ 2] & 0x3F)
        if lead < 0xF0 { return ((lead & 0x0F) << 12 | second << 6 | third, 3) }
        return ((lead & 0x07) << 18 | second << 12 | third << 6 | UInt32(bytes[offset &+ 3] & 0x3F), 4)
    }

    /// The width of a "simple" scalar, nil for any other. Simple scalars
    /// have grapheme break property Other or Control and are none of
    /// Prepend, Extend, SpacingMark, ZWJ, Hangul jamo, regional indicators
    /// or Indic consonants, so no rule of UAX #29 joins two of them:
    /// printable ASCII, Latin-1 and Latin Extended, Greek and Cyrillic
    /// letters, general punctuation, currency signs, box drawing, CJK
    /// punctuation and ideographs, kana, Hangul syllables, fullwidth forms.
    @inline(__always)
    static func simpleWidth(_ scalar: UInt32) -> Int? {
        if scalar < 0x300 { return scalar >= 0xA0 || (0x20...0x7E).contains(scalar) ? 1 : nil }
        if scalar >= 0x4E00 { return scalar <= 0x9FFF || (0xAC00...0xD7A3).contains(scalar) ? 2 : otherSimpleWidth(scalar) }
        return otherSimpleWidth(scalar)
    }

    /// `simpleWidth(_:)` for the less common blocks.
    @inline(__always)
    private static func otherSimpleWidth(_ scalar: UInt32) -> Int? {
        switch scalar {
        case 0x370...0x482, 0x48A...0x52F, 0x2010...0x2027, 0x2030...0x203B, 0x20A0...0x20C0, 0x2500...0x259F:
            return 1
        case 0x3000...0x3029, 0x3041...0x3096, 0x30A0...0x30FF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0xFF01...0xFF60:
            return 2
        default: return nil
        }
    }

    /// C0 and C1 controls: always clusters of their own.
    @inline(__always)
    static func isControl(_ scalar: UInt32) -> Bool { scalar < 0x20 || (0x7F...0x9F).contains(scalar) }

    @inline(__always)
    private static func isSimpleOrControl(_ scalar: UInt32) -> Bool {
        isControl(scalar) || simpleWidth(scalar) != nil
    }
}
