#!/usr/bin/env python3
"""Generate Sources/TerminalUI/WidthTables.swift: the terminal column width
of every Unicode scalar that is not one column wide, as sorted ranges.

Usage (from the repository root):

    pip install wcwidth==0.7.0
    python3 Scripts/generate-width-tables.py

Rules, applied in this order (the first that matches wins):

  0 columns  C0 and C1 controls (U+0000-001F, U+007F-009F); wcwidth says -1
             for these, Switchboard never draws them.
  0 columns  general categories Mn, Me, Mc (marks: they only ever follow a
             base inside a grapheme cluster), Cf (format) except U+00AD SOFT
             HYPHEN and the visible Prepend format characters (Arabic number
             signs and friends), Zl, Zp; Hangul Jamo medial vowels and final
             consonants (U+1160-11FF, U+D7B0-D7FF) and the Hangul fillers
             U+3164, U+FFA0, which combine into the syllable before them.
  2 columns  East Asian Width W or F.
  1 column   everything else, including unassigned code points.

The categories and widths come from Python's `unicodedata` (Unicode 14.0 in
Python 3.11). Code points that Unicode 14 does not know yet, and the East
Asian Width changes of Unicode 15-17 (emoji added since, regional indicators,
Yijing symbols), come from the tables of the `wcwidth` package (0.7.0 ships
Unicode 17.0, the same version as the Swift 6.3 standard library), so the
result is wcwidth's `wcwidth()` with controls mapped to 0. The script checks
that agreement over all 0x110000 code points and fails if it does not hold.
"""

import sys
import unicodedata
from pathlib import Path

import wcwidth
from wcwidth.table_wide import WIDE_EASTASIAN
from wcwidth.table_zero import ZERO_WIDTH

OUTPUT = Path(__file__).resolve().parent.parent / "Sources" / "TerminalUI" / "WidthTables.swift"
MAX = 0x110000

VISIBLE_FORMAT = {0x00AD, *range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
ZERO_CATEGORIES = {"Mn", "Me", "Mc", "Cf", "Zl", "Zp"}
HANGUL_COMBINING = [*range(0x1160, 0x1200), *range(0xD7B0, 0xD800), 0x3164, 0xFFA0]


def expand(ranges):
    return {c for lo, hi in ranges for c in range(lo, hi + 1)}


def widths():
    version = wcwidth.list_versions()[-1]
    newer_zero = expand(ZERO_WIDTH[version])
    newer_wide = expand(WIDE_EASTASIAN[version])
    table = [1] * MAX
    for cp in range(MAX):
        ch = chr(cp)
        category = unicodedata.category(ch)
        if cp < 0x20 or 0x7F <= cp < 0xA0:
            table[cp] = 0
        elif category == "Cn":  # unknown to Unicode 14: ask the newer tables
            table[cp] = 0 if cp in newer_zero else 2 if cp in newer_wide else 1
        elif category in ZERO_CATEGORIES and cp not in VISIBLE_FORMAT:
            table[cp] = 0
        elif unicodedata.east_asian_width(ch) in ("W", "F") or cp in newer_wide:
            table[cp] = 2
    for cp in HANGUL_COMBINING:
        table[cp] = 0
    return table, version


def check(table):
    """The table must say what wcwidth says, controls aside."""
    wrong = []
    for cp in range(MAX):
        if 0xD800 <= cp < 0xE000:
            continue
        expected = max(0, wcwidth.wcwidth(chr(cp)))
        if table[cp] != expected:
            wrong.append(f"U+{cp:04X}: {table[cp]} here, {expected} in wcwidth")
    if wrong:
        sys.exit("disagreements with wcwidth:\n  " + "\n  ".join(wrong[:50]))


def ranges(table):
    """Maximal runs of equal width other than 1, surrogates skipped over."""
    runs = []
    for cp, width in enumerate(table):
        if width == 1 or 0xD800 <= cp < 0xE000:
            continue
        if runs and runs[-1][2] == width and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, width])
    return runs


def render(runs, version):
    entries = [f"0x{lo:06X}_{hi:06X}_{width:04X}" for lo, hi, width in runs]
    lines = ["        " + ", ".join(entries[i : i + 4]) + "," for i in range(0, len(entries), 4)]
    return f"""\
// GENERATED FILE — do not edit. Regenerate with `python3 Scripts/generate-width-tables.py`
// (Python {sys.version_info.major}.{sys.version_info.minor} `unicodedata` {unicodedata.unidata_version}, \
completed with the tables of `wcwidth` {wcwidth.__version__}, Unicode {version}).
// {len(runs)} ranges; every scalar not listed is one column wide.

extension DisplayWidth {{
    /// The scalars that are not one column wide, as sorted, disjoint ranges.
    /// Each entry packs `start << 40 | end << 16 | width`, so in hex it reads
    /// `0xSSSSSS_EEEEEE_000W`.
    static let widthRanges: [UInt64] = [
{chr(10).join(lines)}
    ]
}}
"""


def main():
    table, version = widths()
    check(table)
    runs = ranges(table)
    OUTPUT.write_text(render(runs, version), encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(runs)} ranges)")


if __name__ == "__main__":
    main()
