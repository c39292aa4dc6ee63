import TerminalUI

/// Shown instead of everything when the terminal is below the minimum: the
/// longest wording whose wrapped lines fit, so the size it needs shows
/// however small the terminal is.
public enum TooSmall {
    /// The smallest terminal a full-screen program draws in.
    public static let minimum = Size(width: 60, height: 16)

    public static func draw(theme: Theme, size: Size, into buffer: inout Buffer) {
        let minimum = "\(minimum.width)×\(minimum.height)"
        let current = "\(size.width)×\(size.height)"
        let wordings: [[String]] = [
            ["Switchboard needs a terminal of at least \(minimum).", "This one is \(current): enlarge it to go on.", "q quits."],
            ["Needs at least \(minimum).", "This is \(current).", "q quits."],
            ["Needs \(minimum)", "q quits"],
            ["Needs \(minimum)"],
            [minimum],
        ]
        let width = size.width, height = size.height
        let wrapped = wordings.map { wording in wording.map { DialogFrame.wrap($0, width: width) } }
        let chosen = wrapped.first { paragraphs in
            paragraphs.allSatisfy { lines in lines.allSatisfy { $0.displayWidth <= width } }
                && paragraphs.reduce(0) { $0 + $1.count } <= height
        } ?? wrapped[wrapped.count - 1]
        let lines = chosen.enumerated().flatMap { index, paragraph in paragraph.map { (index, $0) } }
        let top = max(0, (height - lines.count) / 2)
        for (row, (paragraph, line)) in lines.enumerated() {
            let x = max(0, (width - line.displayWidth) / 2)
            buffer.write(line, x: x, y: top + row, style: paragraph == 0 ? theme[.statusWarning] : theme[.text])
        }
    }
}
