import Foundation
import Testing
import TerminalUI

/// Golden-text snapshots: a buffer's rows compared with a file under
/// `Snapshots/`. `SWITCHBOARD_RECORD_SNAPSHOTS=1 swift test` writes them anew.
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// `normalising` replaces, row by row, what differs from run to run
    /// (a port, a random code) with text of the same width. With `marking`,
    /// a second frame follows, headed `marking.name`, that shows only the
    /// cells `marking.cells` picks (by their style, which text alone does
    /// not show), every other cell blank.
    static func check(
        _ buffer: Buffer, _ name: String, normalising: (String) -> String = { $0 },
        marking: (name: String, cells: (Cell) -> Bool)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // A frame keeps the right edge visible in the golden file.
        let border = "+" + String(repeating: "-", count: buffer.width) + "+"
        func framed(_ lines: [String]) -> [String] {
            [border] + lines.map { line in "|" + line + String(repeating: " ", count: max(0, buffer.width - line.displayWidth)) + "|" } + [border]
        }
        var rows = framed(buffer.lines.map(normalising))
        if let marking {
            var marked = Buffer(size: buffer.size)
            for y in 0..<buffer.height {
                for x in 0..<buffer.width where marking.cells(buffer[x, y]) && buffer[x, y].width > 0 { marked[x, y] = buffer[x, y] }
            }
            rows += [marking.name + ":"] + framed(marked.lines)
        }
        let text = rows.joined(separator: "\n") + "\n"
        let file = folder.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["SWITCHBOARD_RECORD_SNAPSHOTS"] == "1" {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let golden = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no golden file \(name).txt; run with SWITCHBOARD_RECORD_SNAPSHOTS=1 to write it", sourceLocation: sourceLocation)
            return
        }
        if golden != text {
            let actual = folder.deletingLastPathComponent().appendingPathComponent("__Failures__/\(name).txt")
            try? FileManager.default.createDirectory(at: actual.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? text.write(to: actual, atomically: true, encoding: .utf8)
            Issue.record("\(name) differs from its golden file; this run's frame is in \(actual.path)", sourceLocation: sourceLocation)
        }
    }
}
