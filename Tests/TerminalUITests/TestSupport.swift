@testable import TerminalUI
import TestBasics

/// Clusters of every width class: ASCII, wide, combining, emoji sequences,
/// zero-width and control characters.
let clusterPool = [
    "a", "b", "Z", " ", "~", "│", "…", "日", "本", "한", "Ａ", "ｱ", "e\u{301}", "A\u{30A}", "👩‍💻", "🇬🇧", "❤️", "❤︎",
    "👍🏽", "😀", "👨‍👩‍👧‍👦", "\u{200D}", "\u{301}", "\u{200B}", "\t", "\n", "\r\n", "\u{1100}\u{1161}\u{11A8}",
]

let stylePool = [
    Style.plain, Style(foreground: .red), Style(background: .blue), Style(attributes: .bold),
    Style(foreground: .palette(200), background: .palette(17), attributes: [.reverse, .underline]),
]

func randomText(using random: inout SeededGenerator, maxClusters: Int) -> String {
    let count = Int.random(in: 0...maxClusters, using: &random)
    return (0..<count).map { _ in clusterPool.randomElement(using: &random)! }.joined()
}

func randomCell(using random: inout SeededGenerator) -> Cell {
    let symbol = Int.random(in: 0..<8, using: &random) == 0 ? "" : clusterPool.randomElement(using: &random)!
    return Cell(symbol, style: stylePool.randomElement(using: &random)!)
}

extension Buffer {
    /// Breaches of the wide-character rule `Buffer` promises; empty when
    /// every wide character is whole and every cell holds one cluster.
    var wideCharacterProblems: [String] {
        var problems: [String] = []
        for y in 0..<height {
            for x in 0..<width {
                let cell = self[x, y]
                if cell.isContinuation {
                    if x == 0 || self[x - 1, y].width != 2 { problems.append("orphan continuation at \(x),\(y)") }
                    else if self[x - 1, y].style != cell.style { problems.append("two styles at \(x - 1),\(y)") }
                    continue
                }
                if cell.symbol.count != 1 { problems.append("\(cell.symbol.count) clusters at \(x),\(y)") }
                switch cell.width {
                case 1: continue
                case 2:
                    if x + 1 == width || !self[x + 1, y].isContinuation { problems.append("half wide at \(x),\(y)") }
                default: problems.append("zero-width symbol at \(x),\(y)")
                }
            }
        }
        return problems
    }
}

/// What a terminal shows after `changes` are drawn over `screen`. Like a
/// real terminal, writing over half of a wide character erases its other
/// half, shown here as `erased` so a diff that forgets to repaint it fails.
func apply(_ changes: [CellChange], to screen: Buffer) -> [Cell] {
    let erased = Cell("¤", style: Style(foreground: .palette(199)))
    let width = screen.width
    var cells = screen.cells
    func eraseOtherHalf(at index: Int, column: Int) {
        if cells[index].isContinuation { cells[index - 1] = erased }
        else if column + 1 < width, cells[index + 1].isContinuation { cells[index + 1] = erased }
    }
    for change in changes {
        precondition(!change.cell.isContinuation, "a change never writes a continuation")
        let index = change.y * width + change.x
        eraseOtherHalf(at: index, column: change.x)
        if change.cell.width == 2 {
            precondition(change.x + 1 < width, "a wide character never starts in the last column")
            eraseOtherHalf(at: index + 1, column: change.x + 1)
            cells[index + 1] = Cell.continuation(style: change.cell.style)
        }
        cells[index] = change.cell
    }
    return cells
}

/// Where a terminal's `screen` differs from `buffer`, or nil.
func mismatch(_ screen: [Cell], _ buffer: Buffer) -> String? {
    guard let index = screen.indices.first(where: { screen[$0] != buffer.cells[$0] }) else { return nil }
    let (x, y) = (index % buffer.width, index / buffer.width)
    return "at \(x),\(y) the screen shows \(screen[index]) instead of \(buffer.cells[index]); rows: \(buffer.lines)"
}
