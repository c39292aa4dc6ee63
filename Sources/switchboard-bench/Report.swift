import Foundation

// The figures' table and numbers, shared by the suites.

/// The median of `values` (NaN when there are none).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// `value` with `decimals` decimals.
func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

/// How a figure stands against its goal.
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

/// Prints rows as a table: the first column left-aligned, the others right-aligned.
func printTable(_ rows: [[String]]) {
    let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max()! }
    for row in rows {
        let cells = row.enumerated().map { column, text in
            column == 0 ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[column] - text.count) + text
        }
        print(cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
    }
}
