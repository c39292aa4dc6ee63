extension Buffer {
    /// Writes `text` from column `x` of row `y`, one grapheme cluster per
    /// cell (two for wide ones), and returns the columns it advanced from
    /// `x` (0 when the row is outside the buffer or `x` is past its right
    /// edge).
    ///
    /// Stops at the buffer's right edge or after `limit` columns; a wide
    /// character that would not fit whole there is left out. Columns left
    /// of 0 are clipped, and a wide character cut by the left edge shows as
    /// a space. Control characters and other zero-width clusters are never
    /// written; combining marks stay in their base's cell. Halves of wide
    /// characters that the text overwrites become spaces.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int? = nil) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        var end = size.width
        if let limit {
            let (room, overflow) = size.width.subtractingReportingOverflow(x)
            if !overflow, limit < room { end = x + max(0, limit) }
        }
        let advanced = editRow(y) { row in
            ClusterIterator.withClusters(of: text) { clusters in
                var column = x
                while let cluster = clusters.next() {
                    let width = cluster.width
                    if width == 0 { continue }
                    if column &+ width > end { break }
                    if column >= 0 {
                        if width == 1 {
                            row.setNarrow(Cell(glyph: cluster.glyph, style: style), x: column)
                        } else {
                            row.setWide(Cell(glyph: cluster.glyph, style: style), x: column)
                        }
                    } else if column &+ width > 0 {
                        row.setNarrow(Cell(glyph: .space, style: style), x: 0)
                    }
                    column &+= width
                }
                return column - x
            }
        }
        return advanced
    }
}
