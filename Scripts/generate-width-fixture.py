#!/usr/bin/env python3
"""Generate Tests/TerminalUITests/WcwidthFixture.swift: a few hundred code
points with the width the Python `wcwidth` package gives them, for
`WidthFixtureTests` to compare against `DisplayWidth`.

Usage (from the repository root):

    pip install wcwidth==0.7.0
    python3 Scripts/generate-width-fixture.py

The sample is deterministic: hand-picked code points from many scripts and
symbol blocks, both ends of every eighth range of the width table plus the
scalars just outside them, and seeded random picks from planes 0-3 and 14.
Values are raw `wcwidth.wcwidth()` results, so controls are -1 (the tests map
that to 0, which is what Switchboard uses for characters it never draws).
"""

import random
import sys
from pathlib import Path

import wcwidth
from wcwidth.table_wide import WIDE_EASTASIAN
from wcwidth.table_zero import ZERO_WIDTH

OUTPUT = Path(__file__).resolve().parent.parent / "Tests" / "TerminalUITests" / "WcwidthFixture.swift"

HAND_PICKED = [
    0x0000, 0x0007, 0x0009, 0x000A, 0x001B, 0x0020, 0x0041, 0x007E, 0x007F, 0x0085, 0x009F, 0x00A0,
    0x00AD, 0x00E9, 0x00F6, 0x0100, 0x0301, 0x0308, 0x030A, 0x0394, 0x0416, 0x05D0, 0x05B0, 0x0600,
    0x0627, 0x064B, 0x0915, 0x093E, 0x094D, 0x0E01, 0x0E31, 0x0E48, 0x10A0, 0x1100, 0x115F, 0x1160,
    0x11A8, 0x11FF, 0x1200, 0x1E9E, 0x200B, 0x200C, 0x200D, 0x200E, 0x2028, 0x2029, 0x202E, 0x2060,
    0x20AC, 0x20E3, 0x2190, 0x2500, 0x2588, 0x25B6, 0x2605, 0x2614, 0x2630, 0x2639, 0x263A, 0x2665,
    0x2705, 0x2714, 0x2728, 0x2764, 0x2E80, 0x2FFF, 0x3000, 0x3001, 0x3041, 0x3099, 0x30A2, 0x3164,
    0x3400, 0x4DBF, 0x4DC0, 0x4E00, 0x65E5, 0x672C, 0x8A9E, 0x9FFF, 0xA000, 0xA4D0, 0xA960, 0xAC00,
    0xD55C, 0xD7A3, 0xD7B0, 0xD7FB, 0xE000, 0xF8FF, 0xF900, 0xFE0E, 0xFE0F, 0xFE10, 0xFE30, 0xFEFF,
    0xFF01, 0xFF21, 0xFF5E, 0xFF61, 0xFF9E, 0xFFA0, 0xFFE0, 0xFFE8, 0xFFFD, 0x10000, 0x1D400, 0x1F004,
    0x1F0CF, 0x1F1E6, 0x1F1EC, 0x1F1FF, 0x1F300, 0x1F3FB, 0x1F3FF, 0x1F441, 0x1F44D, 0x1F469, 0x1F4BB,
    0x1F600, 0x1F64F, 0x1F680, 0x1F6D8, 0x1F7E0, 0x1F90C, 0x1F9FF, 0x1FA70, 0x1FAE8, 0x1FAE9, 0x1FAEA,
    0x1FAF8, 0x1FB00, 0x20000, 0x2A6DF, 0x2FFFD, 0x30000, 0x3FFFD, 0xE0001, 0xE0020, 0xE007F, 0xE0100,
    0xE01EF, 0xF0000, 0x10FFFD,
]


def sample():
    version = wcwidth.list_versions()[-1]
    picks = set(HAND_PICKED)
    ranges = sorted(ZERO_WIDTH[version] + WIDE_EASTASIAN[version])
    for lo, hi in ranges[::8]:
        picks.update({lo - 1, lo, hi, hi + 1})
    rng = random.Random(20240611)
    for plane in (0, 1, 2, 3, 14):
        picks.update(rng.randrange(plane << 16, (plane << 16) + 0x10000) for _ in range(24))
    return sorted(cp for cp in picks if 0 <= cp < 0x110000 and not 0xD800 <= cp < 0xE000)


def render(points):
    entries = [f"(0x{cp:05X}, {wcwidth.wcwidth(chr(cp))})" for cp in points]
    lines = ["    " + ", ".join(entries[i : i + 6]) + "," for i in range(0, len(entries), 6)]
    return f"""\
// GENERATED FILE — do not edit. Regenerate with `python3 Scripts/generate-width-fixture.py`
// (`wcwidth` {wcwidth.__version__}, Unicode {wcwidth.list_versions()[-1]}, Python \
{sys.version_info.major}.{sys.version_info.minor}). {len(points)} code points.

/// `(code point, wcwidth.wcwidth(code point))`; -1 marks a control character.
let wcwidthFixture: [(UInt32, Int)] = [
{chr(10).join(lines)}
]
"""


def main():
    points = sample()
    OUTPUT.write_text(render(points), encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(points)} code points)")


if __name__ == "__main__":
    main()
