import Testing
import TestBasics
@testable import TerminalUI

@Suite struct BufferDiffTests {
    @Test func equalBuffersHaveNoChanges() {
        var buffer = Buffer(width: 10, height: 3)
        buffer.write("日本語 ok 👩‍💻", x: 0, y: 1)
        #expect(buffer.changes(from: buffer).isEmpty)
        let copy = buffer
        #expect(buffer.changes(from: copy).isEmpty)
    }

    @Test func withoutAPreviousFrameEveryCellIsWritten() {
        var buffer = Buffer(width: 4, height: 2)
        buffer.write("日ab", x: 0, y: 0)
        let changes = buffer.changes(from: nil)
        #expect(changes.count == 7)  // 8 cells, one continuation
        #expect(changes.first == CellChange(x: 0, y: 0, cell: Cell("日")))
        #expect(changes.contains { $0.cell.isContinuation } == false)
        #expect(buffer.changes(from: Buffer(width: 5, height: 2)).count == 7)
    }

    @Test func onlyChangedCellsAreWritten() {
        let old = Buffer(width: 5, height: 2)
        var new = old
        new.write("hi", x: 1, y: 1)
        #expect(new.changes(from: old) == [CellChange(x: 1, y: 1, cell: Cell("h")), CellChange(x: 2, y: 1, cell: Cell("i"))])
    }

    @Test func wideReplacedByNarrow() {
        var old = Buffer(width: 4, height: 1)
        old.write("日本", x: 0, y: 0)
        var new = old
        new.write("ab", x: 0, y: 0)
        #expect(new.changes(from: old) == [CellChange(x: 0, y: 0, cell: Cell("a")), CellChange(x: 1, y: 0, cell: Cell("b"))])
        #expect(apply(new.changes(from: old), to: old) == new.cells)
    }

    @Test func narrowReplacedByWide() {
        var old = Buffer(width: 4, height: 1)
        old.write("abcd", x: 0, y: 0)
        var new = old
        new.write("日", x: 1, y: 0)
        #expect(new.changes(from: old) == [CellChange(x: 1, y: 0, cell: Cell("日"))])
        #expect(apply(new.changes(from: old), to: old) == new.cells)
    }

    @Test func wideCharactersShiftedByOneColumn() {
        var old = Buffer(width: 7, height: 1)
        old.write("日本語", x: 0, y: 0)
        var new = Buffer(width: 7, height: 1)
        new.write("日本語", x: 1, y: 0)
        let changes = new.changes(from: old)
        #expect(changes.map(\.x) == [0, 1, 3, 5])
        #expect(apply(changes, to: old) == new.cells)
    }

    @Test func restylingAWideCharacterRewritesItOnce() {
        var old = Buffer(width: 4, height: 1)
        old.write("日", x: 1, y: 0)
        var new = old
        new.restyle(Rect(x: 2, y: 0, width: 1, height: 1), style: Style(attributes: .reverse))
        #expect(new.changes(from: old) == [CellChange(x: 1, y: 0, cell: Cell("日", style: Style(attributes: .reverse)))])
    }

    @Test func aDecomposedCharacterReplacingAPrecomposedOneIsAChange() {
        var old = Buffer(width: 2, height: 1)
        old.write("\u{E9}", x: 0, y: 0)
        var new = old
        new.write("e\u{301}", x: 0, y: 0)
        #expect(new.changes(from: old).count == 1)
    }

    /// Random drawing over random buffers: applying the diff to what the
    /// terminal showed always gives exactly the new buffer.
    @Test func diffRoundTripsOverRandomDrawing() {
        var random = SeededGenerator(seed: 0x5EED)
        for round in 0..<600 {
            let width = Int.random(in: 1...12, using: &random), height = Int.random(in: 1...4, using: &random)
            var old = Buffer(width: width, height: height)
            for _ in 0..<Int.random(in: 0...8, using: &random) { draw(on: &old, using: &random) }
            var new = old
            for _ in 0..<Int.random(in: 0...5, using: &random) { draw(on: &new, using: &random) }

            #expect(old.wideCharacterProblems.isEmpty, "round \(round): \(old.wideCharacterProblems)")
            #expect(new.wideCharacterProblems.isEmpty, "round \(round): \(new.wideCharacterProblems)")
            let changes = new.changes(from: old)
            #expect(mismatch(apply(changes, to: old), new) == nil, "round \(round)")
            #expect(changes.isEmpty == (old == new), "round \(round)")
            let positions = changes.map { $0.y * width + $0.x }
            #expect(positions == positions.sorted() && Set(positions).count == positions.count, "round \(round)")
            var garbage = Buffer(width: width, height: height)
            draw(on: &garbage, using: &random)
            #expect(mismatch(apply(new.changes(from: nil), to: garbage), new) == nil, "round \(round)")
        }
    }

    /// One random drawing operation of any kind.
    private func draw(on buffer: inout Buffer, using random: inout SeededGenerator) {
        let width = buffer.width, height = buffer.height
        let style = stylePool.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5:
            let limit = Bool.random(using: &random) ? nil : Int.random(in: -1...width + 2, using: &random)
            buffer.write(
                randomText(using: &random, maxClusters: 10), x: Int.random(in: -3...width + 1, using: &random),
                y: Int.random(in: -1...height, using: &random), style: style, limit: limit)
        case 5:
            buffer.fill(randomRect(width, height, using: &random), with: randomCell(using: &random))
        case 6:
            buffer.restyle(randomRect(width, height, using: &random), style: style)
        case 7:
            buffer[Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random)] =
                randomCell(using: &random)
        case 8:
            buffer[Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random)].style = style
        default:
            buffer.fill(randomRect(width, height, using: &random), style: style)
        }
    }

    private func randomRect(_ width: Int, _ height: Int, using random: inout SeededGenerator) -> Rect {
        Rect(
            x: Int.random(in: -2...width, using: &random), y: Int.random(in: -1...height, using: &random),
            width: Int.random(in: 0...width + 2, using: &random), height: Int.random(in: 0...height + 1, using: &random))
    }
}
