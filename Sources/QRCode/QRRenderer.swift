/// Draws a ``QRMatrix`` as text using Unicode half blocks, two module rows
/// per line and one module per column.
///
/// Colour convention: a space shows the terminal background, and the block
/// glyphs `▀`, `▄`, `█` paint the upper, lower or both halves of the cell in
/// the terminal's foreground colour.
/// - `invert: false` (default) paints dark modules: use it when the terminal
///   draws dark text on a light background.
/// - `invert: true` paints light modules and the quiet zone instead: use it
///   when the terminal draws light text on a dark background, so the symbol
///   still appears dark-on-light to a scanner.
public enum QRRenderer {
    /// Renders `matrix` surrounded by `quietZone` light modules on every side.
    ///
    /// Every line has exactly `matrix.size + 2 * quietZone` characters (no
    /// trimming), and there are `ceil((matrix.size + 2 * quietZone) / 2)`
    /// lines. When the padded height is odd, the lower half of the last line
    /// is treated as extra light quiet zone. A negative `quietZone` counts as 0.
    public static func halfBlocks(_ matrix: QRMatrix, quietZone: Int = 2, invert: Bool = false) -> [String] {
        let quiet = max(0, quietZone)
        let cells = cellSize(matrixSize: matrix.size, quietZone: quiet)
        // Foreground ink at a padded coordinate; anything outside the matrix
        // (quiet zone, odd final half line) is a light module.
        func ink(_ column: Int, _ row: Int) -> Bool {
            matrix[column - quiet, row - quiet] != invert
        }
        var lines: [String] = []
        lines.reserveCapacity(cells.height)
        for line in 0..<cells.height {
            var text = ""
            text.reserveCapacity(cells.width * 3)
            for column in 0..<cells.width {
                text.append(glyph(upper: ink(column, 2 * line), lower: ink(column, 2 * line + 1)))
            }
            lines.append(text)
        }
        return lines
    }

    /// Terminal cells needed to show a matrix of `matrixSize` modules with
    /// `quietZone` modules of margin: `width` columns by `height` lines
    /// (`height` = ceil((matrixSize + 2 * quietZone) / 2)). A negative
    /// `quietZone` counts as 0.
    public static func cellSize(matrixSize: Int, quietZone: Int = 2) -> (width: Int, height: Int) {
        let side = max(0, matrixSize) + 2 * max(0, quietZone)
        return (side, (side + 1) / 2)
    }

    /// Terminal cells needed to show `matrix` with `quietZone` modules of margin.
    public static func cellSize(_ matrix: QRMatrix, quietZone: Int = 2) -> (width: Int, height: Int) {
        cellSize(matrixSize: matrix.size, quietZone: quietZone)
    }

    private static func glyph(upper: Bool, lower: Bool) -> Character {
        switch (upper, lower) {
        case (true, true): "█"
        case (true, false): "▀"
        case (false, true): "▄"
        case (false, false): " "
        }
    }
}
