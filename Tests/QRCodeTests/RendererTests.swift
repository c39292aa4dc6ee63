import Testing
import TestBasics
@testable import QRCode

@Suite("Half-block renderer", .onOwnThreads)
struct RendererTests {
    /// 3×3 test matrix:  # . #  /  . # .  /  # # .
    let tiny = QRMatrix(
        size: 3,
        modules: [true, false, true, false, true, false, true, true, false],
        version: 1, mask: 0, errorCorrection: .low
    )

    @Test("Golden output for a tiny matrix")
    func golden() {
        #expect(QRRenderer.halfBlocks(tiny, quietZone: 1) == [" ▄ ▄ ", " ▄█  ", "     "])
        #expect(QRRenderer.halfBlocks(tiny, quietZone: 0) == ["▀▄▀", "▀▀ "])
    }

    @Test("Inverted output paints light modules and the quiet zone")
    func inverted() {
        #expect(QRRenderer.halfBlocks(tiny, quietZone: 1, invert: true) == ["█▀█▀█", "█▀ ██", "█████"])
        #expect(QRRenderer.halfBlocks(tiny, quietZone: 0, invert: true) == ["▄▀▄", "▄▄█"])
    }

    @Test("Line count, width and quiet zone", arguments: 0...4)
    func geometry(_ quietZone: Int) throws {
        let matrix = try QREncoder.encode("BCDF-GHJK")
        let lines = QRRenderer.halfBlocks(matrix, quietZone: quietZone)
        let side = matrix.size + 2 * quietZone
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        let cells = QRRenderer.cellSize(matrix, quietZone: quietZone)
        #expect(cells.width == side && cells.height == lines.count)
        let margin = String(repeating: " ", count: quietZone)
        #expect(lines.allSatisfy { $0.hasPrefix(margin) && $0.hasSuffix(margin) })
        // Whole lines above the symbol are blank; the symbol's top row is a
        // finder edge, so the first line touching it contains ink.
        let blankLines = quietZone / 2
        #expect(lines.prefix(blankLines).allSatisfy { $0.allSatisfy { $0 == " " } })
        #expect(lines[blankLines].contains(quietZone % 2 == 0 ? "▀" : "▄"))
    }

    @Test("Cell size helper")
    func cellSize() {
        #expect(QRRenderer.cellSize(matrixSize: 21, quietZone: 2) == (25, 13))
        #expect(QRRenderer.cellSize(matrixSize: 21, quietZone: 0) == (21, 11))
        #expect(QRRenderer.cellSize(matrixSize: 177, quietZone: 4) == (185, 93))
        #expect(QRRenderer.cellSize(matrixSize: 21, quietZone: -3) == (21, 11))
    }
}
