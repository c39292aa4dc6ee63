/// How many terminal columns text takes, counted the way a modern terminal
/// and the `wcwidth` library count them: 0 for controls, combining marks and
/// other zero-width characters, 2 for East Asian wide and fullwidth
/// characters and emoji shown as pictures, else 1.
///
/// Widths of single scalars come from `widthRanges` (see `WidthTables.swift`
/// and `Scripts/generate-width-tables.py`); grapheme clusters add the emoji
/// rules of `of(_:)`.
public enum DisplayWidth {
    /// The columns one grapheme cluster takes on a terminal.
    ///
    /// The width of the cluster's first scalar (its base), except:
    /// - a cluster that begins with a control character (`"\r\n"`) is 0;
    /// - a base of 0 columns (a Prepend format character, say) yields to the
    ///   first scalar after it that has a width;
    /// - an emoji base followed by VS16 (U+FE0F), or joined by a zero-width
    ///   joiner to another emoji, is 2 (`"❤️"`, `"👩‍💻"`, `"1️⃣"`);
    /// - an emoji base followed by VS15 (U+FE0E) and no VS16 asks for text
    ///   presentation and is 1 (`"❤︎"`, `"⌚︎"`);
    /// - a pair of regional indicators (a flag, `"🇬🇧"`) is 2.
    ///
    /// Combining marks, skin-tone modifiers and Hangul medial vowels and
    /// final consonants add nothing to their base.
    public static func of(_ character: Character) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        guard let second = scalars.next() else { return scalarWidth(first) }
        return clusterWidth(first: first, second: second, rest: &scalars)
    }

    /// The columns a grapheme cluster given as a string takes: the width of
    /// the string's first `Character` (0 for the empty string).
    public static func of(_ symbol: String) -> Int {
        let utf8 = symbol.utf8
        if utf8.count == 1, let byte = utf8.first { return asciiWidth(byte) }
        guard let first = symbol.first else { return 0 }
        return of(first)
    }

    /// The columns a whole string takes: the sum of its clusters' widths.
    /// Runs of ASCII are counted without grapheme breaking.
    public static func of(text: some StringProtocol) -> Int {
        ClusterIterator.withClusters(of: text) { clusters in
            var total = 0
            while let cluster = clusters.next() { total &+= cluster.width }
            return total
        }
    }

    /// The columns a single scalar takes when it stands first in its
    /// cluster: 0, 1 or 2, from the generated width table.
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }  // Latin-1 and Latin Extended: nothing in the table
        return tableWidth(value)
    }

    /// The width of an ASCII byte: 0 for controls, else 1.
    @inline(__always)
    static func asciiWidth(_ byte: UInt8) -> Int {
        byte < 0x20 || byte == 0x7F ? 0 : 1
    }

    /// Binary search of `widthRanges` for `value`; 1 when it is in no range.
    static func tableWidth(_ value: UInt32) -> Int {
        widthRanges.withUnsafeBufferPointer { table in
            // Entries compare by their start first, so this key sorts after
            // every entry whose start is `value` or less.
            let key = UInt64(value) << 40 | 0xFF_FFFF_FFFF
            var low = 0, high = table.count
            while low < high {
                let middle = (low &+ high) >> 1
                if table[middle] <= key { low = middle &+ 1 } else { high = middle }
            }
            guard low > 0 else { return 1 }
            let entry = table[low &- 1]
            let end = UInt32(truncatingIfNeeded: entry >> 16) & 0xFF_FFFF
            return value <= end ? Int(entry & 0xFFFF) : 1
        }
    }
}
