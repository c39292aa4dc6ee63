/// Reed–Solomon block structure of one version at one error-correction level
/// (ISO/IEC 18004:2015, Table 9).
///
/// Blocks of group 1 come first in the codeword sequence; group-2 blocks
/// (if any) hold one more data codeword each. Every block carries the same
/// number of error-correction codewords.
struct BlockLayout: Sendable, Equatable {
    /// Error-correction codewords appended to every block.
    let ecCodewordsPerBlock: Int
    /// Number of blocks in group 1.
    let group1Blocks: Int
    /// Data codewords per group-1 block.
    let group1DataCodewords: Int
    /// Number of blocks in group 2 (may be zero).
    let group2Blocks: Int
    /// Data codewords per group-2 block (zero when the group is empty).
    let group2DataCodewords: Int

    /// Total number of blocks.
    var blockCount: Int { group1Blocks + group2Blocks }

    /// Total number of data codewords in the symbol.
    var dataCodewords: Int {
        group1Blocks * group1DataCodewords + group2Blocks * group2DataCodewords
    }

    /// Total number of codewords (data plus error correction) in the symbol.
    var totalCodewords: Int { dataCodewords + blockCount * ecCodewordsPerBlock }

    /// Data codeword counts of every block, in codeword-sequence order.
    var dataBlockLengths: [Int] {
        Array(repeating: group1DataCodewords, count: group1Blocks)
            + Array(repeating: group2DataCodewords, count: group2Blocks)
    }
}

/// The full error-correction block table for versions 1–40 and levels L, M, Q, H.
enum ECCTable {
    /// Block layout for `version` (1...40) at `level`.
    static func layout(version: Int, level: QRErrorCorrection) -> BlockLayout {
        precondition((1...40).contains(version), "version out of range")
        return table[version - 1][level.tableIndex]
    }

    private static func b(_ ec: Int, _ g1: Int, _ d1: Int, _ g2: Int, _ d2: Int) -> BlockLayout {
        BlockLayout(
            ecCodewordsPerBlock: ec,
            group1Blocks: g1, group1DataCodewords: d1,
            group2Blocks: g2, group2DataCodewords: d2
        )
    }

    /// Rows: versions 1–40. Columns: L, M, Q, H.
    /// Entry: b(ecPerBlock, group1Blocks, group1Data, group2Blocks, group2Data).
    private static let table: [[BlockLayout]] = [
        /*  1 */ [b(7, 1, 19, 0, 0), b(10, 1, 16, 0, 0), b(13, 1, 13, 0, 0), b(17, 1, 9, 0, 0)],
        /*  2 */ [b(10, 1, 34, 0, 0), b(16, 1, 28, 0, 0), b(22, 1, 22, 0, 0), b(28, 1, 16, 0, 0)],
        /*  3 */ [b(15, 1, 55, 0, 0), b(26, 1, 44, 0, 0), b(18, 2, 17, 0, 0), b(22, 2, 13, 0, 0)],
        /*  4 */ [b(20, 1, 80, 0, 0), b(18, 2, 32, 0, 0), b(26, 2, 24, 0, 0), b(16, 4, 9, 0, 0)],
        /*  5 */ [b(26, 1, 108, 0, 0), b(24, 2, 43, 0, 0), b(18, 2, 15, 2, 16), b(22, 2, 11, 2, 12)],
        /*  6 */ [b(18, 2, 68, 0, 0), b(16, 4, 27, 0, 0), b(24, 4, 19, 0, 0), b(28, 4, 15, 0, 0)],
        /*  7 */ [b(20, 2, 78, 0, 0), b(18, 4, 31, 0, 0), b(18, 2, 14, 4, 15), b(26, 4, 13, 1, 14)],
        /*  8 */ [b(24, 2, 97, 0, 0), b(22, 2, 38, 2, 39), b(22, 4, 18, 2, 19), b(26, 4, 14, 2, 15)],
        /*  9 */ [b(30, 2, 116, 0, 0), b(22, 3, 36, 2, 37), b(20, 4, 16, 4, 17), b(24, 4, 12, 4, 13)],
        /* 10 */ [b(18, 2, 68, 2, 69), b(26, 4, 43, 1, 44), b(24, 6, 19, 2, 20), b(28, 6, 15, 2, 16)],
        /* 11 */ [b(20, 4, 81, 0, 0), b(30, 1, 50, 4, 51), b(28, 4, 22, 4, 23), b(24, 3, 12, 8, 13)],
        /* 12 */ [b(24, 2, 92, 2, 93), b(22, 6, 36, 2, 37), b(26, 4, 20, 6, 21), b(28, 7, 14, 4, 15)],
        /* 13 */ [b(26, 4, 107, 0, 0), b(22, 8, 37, 1, 38), b(24, 8, 20, 4, 21), b(22, 12, 11, 4, 12)],
        /* 14 */ [b(30, 3, 115, 1, 116), b(24, 4, 40, 5, 41), b(20, 11, 16, 5, 17), b(24, 11, 12, 5, 13)],
        /* 15 */ [b(22, 5, 87, 1, 88), b(24, 5, 41, 5, 42), b(30, 5, 24, 7, 25), b(24, 11, 12, 7, 13)],
        /* 16 */ [b(24, 5, 98, 1, 99), b(28, 7, 45, 3, 46), b(24, 15, 19, 2, 20), b(30, 3, 15, 13, 16)],
        /* 17 */ [b(28, 1, 107, 5, 108), b(28, 10, 46, 1, 47), b(28, 1, 22, 15, 23), b(28, 2, 14, 17, 15)],
        /* 18 */ [b(30, 5, 120, 1, 121), b(26, 9, 43, 4, 44), b(28, 17, 22, 1, 23), b(28, 2, 14, 19, 15)],
        /* 19 */ [b(28, 3, 113, 4, 114), b(26, 3, 44, 11, 45), b(26, 17, 21, 4, 22), b(26, 9, 13, 16, 14)],
        /* 20 */ [b(28, 3, 107, 5, 108), b(26, 3, 41, 13, 42), b(30, 15, 24, 5, 25), b(28, 15, 15, 10, 16)],
        /* 21 */ [b(28, 4, 116, 4, 117), b(26, 17, 42, 0, 0), b(28, 17, 22, 6, 23), b(30, 19, 16, 6, 17)],
        /* 22 */ [b(28, 2, 111, 7, 112), b(28, 17, 46, 0, 0), b(30, 7, 24, 16, 25), b(24, 34, 13, 0, 0)],
        /* 23 */ [b(30, 4, 121, 5, 122), b(28, 4, 47, 14, 48), b(30, 11, 24, 14, 25), b(30, 16, 15, 14, 16)],
        /* 24 */ [b(30, 6, 117, 4, 118), b(28, 6, 45, 14, 46), b(30, 11, 24, 16, 25), b(30, 30, 16, 2, 17)],
        /* 25 */ [b(26, 8, 106, 4, 107), b(28, 8, 47, 13, 48), b(30, 7, 24, 22, 25), b(30, 22, 15, 13, 16)],
        /* 26 */ [b(28, 10, 114, 2, 115), b(28, 19, 46, 4, 47), b(28, 28, 22, 6, 23), b(30, 33, 16, 4, 17)],
        /* 27 */ [b(30, 8, 122, 4, 123), b(28, 22, 45, 3, 46), b(30, 8, 23, 26, 24), b(30, 12, 15, 28, 16)],
        /* 28 */ [b(30, 3, 117, 10, 118), b(28, 3, 45, 23, 46), b(30, 4, 24, 31, 25), b(30, 11, 15, 31, 16)],
        /* 29 */ [b(30, 7, 116, 7, 117), b(28, 21, 45, 7, 46), b(30, 1, 23, 37, 24), b(30, 19, 15, 26, 16)],
        /* 30 */ [b(30, 5, 115, 10, 116), b(28, 19, 47, 10, 48), b(30, 15, 24, 25, 25), b(30, 23, 15, 25, 16)],
        /* 31 */ [b(30, 13, 115, 3, 116), b(28, 2, 46, 29, 47), b(30, 42, 24, 1, 25), b(30, 23, 15, 28, 16)],
        /* 32 */ [b(30, 17, 115, 0, 0), b(28, 10, 46, 23, 47), b(30, 10, 24, 35, 25), b(30, 19, 15, 35, 16)],
        /* 33 */ [b(30, 17, 115, 1, 116), b(28, 14, 46, 21, 47), b(30, 29, 24, 19, 25), b(30, 11, 15, 46, 16)],
        /* 34 */ [b(30, 13, 115, 6, 116), b(28, 14, 46, 23, 47), b(30, 44, 24, 7, 25), b(30, 59, 16, 1, 17)],
        /* 35 */ [b(30, 12, 121, 7, 122), b(28, 12, 47, 26, 48), b(30, 39, 24, 14, 25), b(30, 22, 15, 41, 16)],
        /* 36 */ [b(30, 6, 121, 14, 122), b(28, 6, 47, 34, 48), b(30, 46, 24, 10, 25), b(30, 2, 15, 64, 16)],
        /* 37 */ [b(30, 17, 122, 4, 123), b(28, 29, 46, 14, 47), b(30, 49, 24, 10, 25), b(30, 24, 15, 46, 16)],
        /* 38 */ [b(30, 4, 122, 18, 123), b(28, 13, 46, 32, 47), b(30, 48, 24, 14, 25), b(30, 42, 15, 32, 16)],
        /* 39 */ [b(30, 20, 117, 4, 118), b(28, 40, 47, 7, 48), b(30, 43, 24, 22, 25), b(30, 10, 15, 67, 16)],
        /* 40 */ [b(30, 19, 118, 6, 119), b(28, 18, 47, 31, 48), b(30, 34, 24, 34, 25), b(30, 20, 15, 61, 16)],
    ]
}
