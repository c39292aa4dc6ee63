/// A cell's grapheme cluster packed into 16 bytes that own no memory: up
/// to 15 UTF-8 bytes inline, with their count and display width. Cells
/// therefore copy as plain memory and compare as two integers, and drawing
/// ASCII or CJK text creates no `String`s at all. The rare longer clusters
/// (family emoji, subdivision flags) are interned in `GlyphPool` and
/// stored as an index.
struct Glyph: Hashable, Sendable {
    /// UTF-8 bytes 0–7, byte `i` in bits `8i..<8i+8`; for a pooled
    /// cluster, its index in the pool.
    private(set) var low: UInt64
    /// UTF-8 bytes 8–14 in bits 0–55, then the metadata byte: bits 56–59
    /// the byte count, 60–61 the width, 63 set when pooled.
    private(set) var high: UInt64

    private static let countShift: UInt64 = 56, widthShift: UInt64 = 60, pooledBit: UInt64 = 1 << 63
    private static let inlineCapacity = 15

    /// The empty glyph: the right half of a wide character.
    static let empty = Glyph(low: 0, high: 0)
    /// A space.
    static let space = Glyph(ascii: 0x20)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// One ASCII character.
    @inline(__always)
    init(ascii byte: UInt8) {
        low = UInt64(byte)
        high = 1 << Self.countShift | UInt64(DisplayWidth.asciiWidth(byte)) << Self.widthShift
    }

    /// The cluster spelled by `bytes` (valid UTF-8), `width` columns wide.
    @inline(__always)
    init(utf8 bytes: UnsafeBufferPointer<UInt8>, width: Int) {
        let metadata = UInt64(width) << Self.widthShift
        guard bytes.count <= Self.inlineCapacity else {
            self.init(low: UInt64(GlyphPool.shared.index(of: Array(bytes))), high: metadata | Self.pooledBit)
            return
        }
        let count = bytes.count
        let low = Self.word(bytes, from: 0, count: min(count, 8))
        let high = count > 8 ? Self.word(bytes, from: 8, count: count &- 8) : 0
        self.init(low: low, high: high | UInt64(count) << Self.countShift | metadata)
    }

    /// `count` (at most 8) bytes from `from`, the first in the lowest bits.
    @inline(__always)
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, count: Int) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<count { word |= UInt64(bytes[from &+ i]) << (8 &* UInt64(i)) }
        return word
    }

    /// The cluster `symbol` (normally one `Character`), measured by
    /// `DisplayWidth.of(_:)`.
    init(_ symbol: String) {
        var symbol = symbol
        let width = DisplayWidth.of(symbol)
        self = symbol.withUTF8 { Glyph(utf8: $0, width: width) }
    }

    /// Whether this is the empty glyph.
    var isEmpty: Bool { low == 0 && high == 0 }
    /// Columns: 0, 1 or 2.
    var width: Int { Int(truncatingIfNeeded: high >> Self.widthShift) & 0x3 }

    /// The cluster as a string.
    var string: String {
        if high & Self.pooledBit != 0 { return GlyphPool.shared.string(at: Int(truncatingIfNeeded: low)) }
        let count = Int(truncatingIfNeeded: high >> Self.countShift) & 0xF
        if count == 1, low < 0x80 { return Cell.asciiSymbols[Int(low)] }
        return String(unsafeUninitializedCapacity: count) { buffer in
            for i in 0..<count {
                let word = i < 8 ? low >> (8 * UInt64(i)) : high >> (8 * UInt64(i - 8))
                buffer[i] = UInt8(truncatingIfNeeded: word)
            }
            return count
        }
    }
}
