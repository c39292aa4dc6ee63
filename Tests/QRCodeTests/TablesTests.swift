import Testing
import TestBasics
@testable import QRCode

@Suite("Tables and BCH codes", .onOwnThreads)
struct TablesTests {
    @Test("ECC table matches the data-module count of every version")
    func eccTableConsistent() {
        for version in 1...40 {
            let grid = ModuleGrid(version: version)
            var dataModules = 0
            for y in 0..<grid.size {
                for x in 0..<grid.size where !grid.isFunctionModule(x: x, y: y) { dataModules += 1 }
            }
            let remainderBits = switch version {
            case 2...6: 7
            case 14...20, 28...34: 3
            case 21...27: 4
            default: 0
            }
            for level in QRErrorCorrection.allCases {
                let layout = ECCTable.layout(version: version, level: level)
                #expect(layout.totalCodewords * 8 + remainderBits == dataModules, "v\(version) \(level)")
                if layout.group2Blocks > 0 {
                    #expect(layout.group2DataCodewords == layout.group1DataCodewords + 1)
                }
            }
        }
    }

    @Test("Alignment table matches the spacing rule of Annex E")
    func alignmentTable() {
        #expect(AlignmentTable.positions(version: 1).isEmpty)
        for version in 2...40 {
            let count = version / 7 + 2
            let size = 4 * version + 17
            let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
            let expected = [6] + (0..<(count - 1)).map { size - 7 - $0 * step }.reversed()
            #expect(AlignmentTable.positions(version: version) == expected, "v\(version)")
        }
    }

    @Test("Format information BCH codes")
    func formatBits() {
        #expect(FormatInfo.formatBits(level: .medium, mask: 0) == 0x5412)
        #expect(FormatInfo.formatBits(level: .low, mask: 0) == 0x77C4)
        #expect(FormatInfo.formatBits(level: .quartile, mask: 7) == 0x2BED)
        #expect(FormatInfo.formatBits(level: .high, mask: 7) == 0x083B)
    }

    @Test("Version information BCH codes")
    func versionBits() {
        #expect(FormatInfo.versionBits(version: 7) == 0x07C94)
        #expect(FormatInfo.versionBits(version: 21) == 0x15683)
        #expect(FormatInfo.versionBits(version: 40) == 0x28C69)
    }

    @Test("Penalty rules N1 and N3 on single lines")
    func runPenalty() {
        func line(_ text: String) -> [Bool] { text.map { $0 == "#" } }
        #expect(Penalty.runPenalty(line("#.#.#.#.")) == 0)
        #expect(Penalty.runPenalty(line("#####.#.")) == 3)
        #expect(Penalty.runPenalty(line("#######.")) == 5)
        // 1:1:3:1:1 with four light modules after it: N3 only.
        #expect(Penalty.runPenalty(line(".#.###.#....#.")) == 40)
        // Touching the symbol edge counts as light.
        #expect(Penalty.runPenalty(line("#.###.#.#.#")) == 40)
        // Scaled 2:2:6:2:2 pattern with 8 light modules; the 6-run also scores N1.
        #expect(Penalty.runPenalty(line("##..######..##........#")) == 40 + 4 + 6)
        // Bordered by short light runs on both sides: no N3.
        #expect(Penalty.runPenalty(line("#.#.#.###.#.#.#")) == 0)
    }
}
