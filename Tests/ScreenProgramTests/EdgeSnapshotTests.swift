import Foundation
import Testing
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// Text that does not fit where it is drawn: it stays inside its pane or
/// dialog, and what matters (the session, the size needed, the end of the
/// filter) stays visible.
@Suite("Screen snapshots: text that does not fit")
struct EdgeSnapshotTests {
    /// The column of the sign-in dialog's right border on row `y`, and its left one.
    private static func dialogEdges(_ line: String) -> (left: Int, right: Int)? {
        let characters = Array(line)
        guard let left = characters.firstIndex(of: "│"), let right = characters.lastIndex(of: "│"), right > left else { return nil }
        return (left, right)
    }

    @Test("sign-in: a long user code and a long verification URL stay inside the dialog",
          arguments: [Size(width: 80, height: 24), Size(width: 60, height: 16)])
    func longCodeAndURL(size: Size) {
        var state = Fixture.state(size: size)
        _ = Fixture.press(.character("a"), .down, .down, .enter, on: &state)
        let url = "https://login.example.com/oauth2/v2.0/devicecode/verify/with/a/very/long/path/indeed?tenant=organizations"
        let code = "ABCDEFGHJKLMNPQRSTUVWXYZ-ABCDEFGHJKLMNPQRSTUVWXYZ"
        _ = state.reduce(.codeReady(WaitingCode(
            userCode: code, verificationURI: url, completeURI: nil, expiresAt: Fixture.now.advanced(by: 299),
            interval: 5, demoServer: nil, qrRows: [])))
        let buffer = Screen.draw(state)
        let under = Screen.draw({ var plain = state; plain.dialog = nil; return plain }())
        // Every row: what lies left of the dialog, and what lies right of it, is the screen underneath or blank (cleared).
        let lines = buffer.lines, plainLines = under.lines
        for (y, line) in lines.enumerated() where line.contains("│") && y > 0 && y < size.height - 1 {
            guard let edges = Self.dialogEdges(line) else { continue }
            let characters = Array(line), plain = Array(plainLines[y])
            for side in [characters.indices.filter { $0 < edges.left }, characters.indices.filter { $0 > edges.right }] {
                let shown = side.filter { $0 < plain.count }
                #expect(shown.allSatisfy { characters[$0] == plain[$0] } || side.allSatisfy { characters[$0] == " " }, "row \(y): \(line)")
            }
        }
        // All of the code and the URL are there, wrapped.
        let text = lines.joined().filter { !$0.isWhitespace && $0 != "│" && $0 != "…" }  // the panes underneath end rows with …
        #expect(text.contains(code.filter { $0 != "-" }.prefix(10)))
        #expect(text.contains("tenant=organizations"))
        Snapshot.check(buffer, "signin-long-code-\(size.width)x\(size.height)")
    }

    @Test("the filter field keeps its end (and the cursor) in view with wide characters")
    func wideFilter() {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("東京都渋谷区神宮前一丁目二番三号の終わり", on: &state)
        let buffer = Screen.draw(state)
        #expect(buffer.text.contains("の終わり"))
        Snapshot.check(buffer, "filter-wide-80x24")
    }

    @Test("too small: the size it needs is shown at any width", arguments: [
        Size(width: 47, height: 10), Size(width: 30, height: 8), Size(width: 20, height: 6), Size(width: 12, height: 4),
    ])
    func tooSmall(size: Size) {
        let buffer = Screen.draw(Fixture.several(size: size))
        let text = buffer.lines.joined(separator: " ")
        let minimum = ScreenLayout.minimum
        #expect(text.contains("\(minimum.width)×\(minimum.height)"), "\(buffer.lines)")
        #expect(text.contains("\(size.width)×\(size.height)") || size.width < 16, "\(buffer.lines)")
        Snapshot.check(buffer, "too-small-\(size.width)x\(size.height)")
    }

    @Test("a long name is cut with … before the session marker leaves the top bar", arguments: [80, 60])
    func longName(width: Int) {
        let long = Account(id: AccountID(9), name: "Maximilian Alexander Konstantin von Habsburg-Lothringen the Third of Many", identities: [
            Fixture.identity("demo", "max", "Max", email: "max@example.org"),
        ])
        let state = Fixture.state(size: Size(width: width, height: 24), accounts: [long], active: long)
        let buffer = Screen.draw(state)
        let top = buffer.lines[0]
        #expect(top.contains("⌂ \(Fixture.session)"), "\(top)")
        #expect(top.contains("…"))
        #expect(top.contains("● Maximilian"))
        Snapshot.check(buffer, "long-name-\(width)x24")
    }

    @Test("an emoji ZWJ sequence is one cluster of width 2, kept whole in a cell")
    func zwjName() {
        let family = "👨‍👩‍👧"
        #expect(family.displayWidth == 2)
        let person = Account(id: AccountID(8), name: "Family \(family) Account", identities: [
            Fixture.identity("demo", "fam", "Family", email: nil),
        ])
        let state = Fixture.state(size: Size(width: 80, height: 24), accounts: [person], active: person)
        let buffer = Screen.draw(state)
        #expect(buffer.lines[0].contains("Family \(family) Account"))
        #expect(buffer.lines.contains { $0.contains("Family \(family) Account") && $0.hasPrefix("│") })
        Snapshot.check(buffer, "zwj-name-80x24")
    }
}
