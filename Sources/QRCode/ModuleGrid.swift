/// A symbol under construction: module colours plus which modules belong to
/// function patterns (and therefore never carry data or get masked).
struct ModuleGrid: Sendable {
    /// Symbol version, 1...40.
    let version: Int
    /// Modules per side.
    let size: Int
    /// Row-major colours; `true` is dark.
    private(set) var dark: [Bool]
    /// Row-major flags marking function-pattern and reserved modules.
    private(set) var isFunction: [Bool]

    /// A grid with every function pattern drawn and the format area reserved
    /// (left light until ``drawFormatBits(level:mask:)`` is called).
    init(version: Int) {
        self.version = version
        size = 4 * version + 17
        dark = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        drawTimingPatterns()
        drawFinderPatterns()
        drawAlignmentPatterns()
        drawFormatBits(level: .medium, mask: 0) // reserves the area; redrawn later
        drawVersionBits()
    }

    /// Colour of the module at column `x`, row `y`.
    subscript(x: Int, y: Int) -> Bool {
        dark[y * size + x]
    }

    /// Whether the module at column `x`, row `y` is a function module.
    func isFunctionModule(x: Int, y: Int) -> Bool {
        isFunction[y * size + x]
    }

    /// Sets a data module's colour (function modules are left untouched).
    mutating func setData(x: Int, y: Int, dark value: Bool) {
        let index = y * size + x
        guard !isFunction[index] else { return }
        dark[index] = value
    }

    /// Inverts a data module (used by masking).
    mutating func flipData(x: Int, y: Int) {
        let index = y * size + x
        guard !isFunction[index] else { return }
        dark[index].toggle()
    }

    private mutating func setFunction(x: Int, y: Int, dark value: Bool) {
        dark[y * size + x] = value
        isFunction[y * size + x] = true
    }

    private mutating func drawTimingPatterns() {
        for i in 0..<size {
            setFunction(x: 6, y: i, dark: i % 2 == 0)
            setFunction(x: i, y: 6, dark: i % 2 == 0)
        }
    }

    /// Finder patterns with their light separators, clipped to the symbol.
    private mutating func drawFinderPatterns() {
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard x >= 0, y >= 0, x < size, y < size else { continue }
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x: x, y: y, dark: distance != 2 && distance != 4)
                }
            }
        }
    }

    private mutating func drawAlignmentPatterns() {
        let positions = AlignmentTable.positions(version: version)
        guard let first = positions.first, let last = positions.last else { return }
        for cy in positions {
            for cx in positions {
                let overlapsFinder = (cx == first && cy == first)
                    || (cx == first && cy == last)
                    || (cx == last && cy == first)
                if overlapsFinder { continue }
                for dy in -2...2 {
                    for dx in -2...2 {
                        setFunction(x: cx + dx, y: cy + dy, dark: max(abs(dx), abs(dy)) != 1)
                    }
                }
            }
        }
    }

    /// Draws both copies of the format information and the dark module.
    mutating func drawFormatBits(level: QRErrorCorrection, mask: Int) {
        let bits = FormatInfo.formatBits(level: level, mask: mask)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // Copy around the top-left finder.
        for i in 0...5 { setFunction(x: 8, y: i, dark: bit(i)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for i in 9..<15 { setFunction(x: 14 - i, y: 8, dark: bit(i)) }
        // Copy split between the top-right and bottom-left finders.
        for i in 0..<8 { setFunction(x: size - 1 - i, y: 8, dark: bit(i)) }
        for i in 8..<15 { setFunction(x: 8, y: size - 15 + i, dark: bit(i)) }
        setFunction(x: 8, y: size - 8, dark: true) // the dark module
    }

    /// Draws both 6×3 version information blocks (versions 7 and up).
    private mutating func drawVersionBits() {
        guard version >= 7 else { return }
        let bits = FormatInfo.versionBits(version: version)
        for i in 0..<18 {
            let value = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3, b = i / 3
            setFunction(x: a, y: b, dark: value)
            setFunction(x: b, y: a, dark: value)
        }
    }
}
