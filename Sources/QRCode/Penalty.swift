/// Mask evaluation by the four penalty rules of ISO/IEC 18004:2015, 7.8.3.
///
/// Where the standard leaves room for interpretation this follows libqrencode
/// (the reference used for the test fixtures):
/// - N3 scores 40 once per dark:light:dark:light:dark run sequence in the
///   ratio 1:1:3:1:1 (any integer scale `k`) whose light neighbour run on at
///   least one side is ≥ 4k long or touches the symbol edge (the quiet zone
///   continues it).
/// - N4 rounds the dark percentage to an integer before taking
///   `10 * (|percent − 50| / 5)`.
enum Penalty {
    static let n1 = 3, n2 = 3, n3 = 40, n4 = 10

    /// Total penalty of a fully drawn (masked, format-stamped) symbol.
    static func score(_ grid: ModuleGrid) -> Int {
        let size = grid.size
        var total = 0
        var line = [Bool](repeating: false, count: size)
        for y in 0..<size {
            for x in 0..<size { line[x] = grid[x, y] }
            total += runPenalty(line)
        }
        for x in 0..<size {
            for y in 0..<size { line[y] = grid[x, y] }
            total += runPenalty(line)
        }
        total += blockPenalty(grid)
        total += balancePenalty(grid)
        return total
    }

    /// Rules N1 (runs of five or more) and N3 (finder-like patterns) for one
    /// row or column.
    static func runPenalty(_ line: [Bool]) -> Int {
        // Run lengths alternating light, dark, light, …; a leading dark
        // module yields an empty first light run, so odd indices are dark.
        var runs: [Int] = [0]
        var current = false
        for module in line {
            if module == current {
                runs[runs.count - 1] += 1
            } else {
                runs.append(1)
                current = module
            }
        }

        var penalty = 0
        for (i, run) in runs.enumerated() {
            if run >= 5 { penalty += n1 + (run - 5) }
            guard i % 2 == 1, i >= 3, i + 2 < runs.count, run % 3 == 0 else { continue }
            let k = run / 3
            guard runs[i - 2] == k, runs[i - 1] == k, runs[i + 1] == k, runs[i + 2] == k else { continue }
            let lightBefore = i == 3 || runs[i - 3] >= 4 * k
            let lightAfter = i + 4 >= runs.count || runs[i + 3] >= 4 * k
            if lightBefore || lightAfter { penalty += n3 }
        }
        return penalty
    }

    /// Rule N2: every 2×2 block of one colour.
    static func blockPenalty(_ grid: ModuleGrid) -> Int {
        var penalty = 0
        for y in 0..<(grid.size - 1) {
            for x in 0..<(grid.size - 1) {
                let colour = grid[x, y]
                if colour == grid[x + 1, y],
                   colour == grid[x, y + 1],
                   colour == grid[x + 1, y + 1] {
                    penalty += n2
                }
            }
        }
        return penalty
    }

    /// Rule N4: deviation of the dark-module proportion from 50 %.
    static func balancePenalty(_ grid: ModuleGrid) -> Int {
        let total = grid.size * grid.size
        var darkCount = 0
        for y in 0..<grid.size {
            for x in 0..<grid.size where grid[x, y] { darkCount += 1 }
        }
        let percent = (200 * darkCount + total) / total / 2 // rounded
        return abs(percent - 50) / 5 * n4
    }
}
