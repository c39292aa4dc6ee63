/// The eight data-mask patterns (ISO/IEC 18004:2015, 7.8.2, Table 10).
enum Masking {
    /// Valid mask pattern references.
    static let patterns = 0..<8

    /// Whether `mask` inverts the module at column `x`, row `y`.
    static func inverts(mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (x * y) % 2 + (x * y) % 3 == 0
        case 6: ((x * y) % 2 + (x * y) % 3) % 2 == 0
        case 7: ((x + y) % 2 + (x * y) % 3) % 2 == 0
        default: preconditionFailure("mask out of range")
        }
    }

    /// A copy of `grid` with `mask` applied to the data modules and the
    /// matching format information drawn.
    static func apply(mask: Int, level: QRErrorCorrection, to grid: ModuleGrid) -> ModuleGrid {
        var masked = grid
        for y in 0..<grid.size {
            for x in 0..<grid.size where inverts(mask: mask, x: x, y: y) {
                masked.flipData(x: x, y: y)
            }
        }
        masked.drawFormatBits(level: level, mask: mask)
        return masked
    }

    /// Applies every mask, scores each with ``Penalty/score(_:)`` and returns
    /// the lowest-scoring one (the lowest mask number wins ties).
    static func best(level: QRErrorCorrection, for grid: ModuleGrid) -> (mask: Int, grid: ModuleGrid) {
        var best = (mask: 0, grid: apply(mask: 0, level: level, to: grid))
        var bestScore = Penalty.score(best.grid)
        for mask in patterns.dropFirst() {
            let candidate = apply(mask: mask, level: level, to: grid)
            let score = Penalty.score(candidate)
            if score < bestScore {
                best = (mask, candidate)
                bestScore = score
            }
        }
        return best
    }
}
