import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
import TerminalUI
@testable import switchboard

/// `switch` with no account on a terminal: the inline picker.
@Suite("switchboard switch: the inline picker")
struct AccountPickerTests {
    private static func accounts() -> [Account] {
        [("Ada Lovelace", "ada@example.org"), ("Grace Hopper", "grace@navy.example"), ("Grace Brewster", "gb@lab.example")].enumerated().map {
            Account(
                id: AccountID(Int64($0.offset + 1)), name: $0.element.0,
                identities: [LinkedIdentity(identity: Identity(provider: "demo", subject: "\($0.offset)"), email: $0.element.1)])
        }
    }

    @Test("typing filters, arrows move, Enter chooses the selected account, Esc leaves; lines fit the width, the active one marked")
    func state() {
        var picker = AccountPicker(accounts: Self.accounts(), active: AccountID(1), height: 2)
        #expect(picker.lines(width: 80) == [
            "switch to> ", "▸● Ada Lovelace  ada@example.org", "   Grace Hopper  grace@navy.example", "  3 of 3  ⏎ switch  esc leave",
        ])
        for character in "grace" { #expect(picker.handle(.character(character)) == .more) }
        #expect(picker.lines(width: 80).count == 4)
        #expect(picker.handle(.down) == .more)
        #expect(picker.lines(width: 80)[2].hasPrefix("▸"))
        #expect(picker.handle(.enter) == .chose(picker.lines(width: 80)[2].contains("Brewster") ? AccountID(3) : AccountID(2)))
        #expect(picker.lines(width: 20).allSatisfy { $0.displayWidth <= 20 })
        for _ in 0..<5 { _ = picker.handle(.backspace) }
        _ = picker.handle(.character("z"))
        #expect(picker.lines(width: 80).contains("  no account matches"))
        #expect(picker.handle(.enter) == .more)
        #expect(picker.handle(.escape) == .left)
    }

    @Test("in a terminal: switch alone opens the picker under the prompt; typing and Enter switch; Esc leaves it unchanged (12)")
    func inTerminal() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let environment = cli.environment(session: "tty-picker").merging(testChildVariables) { $1 }
        try await withTmux(builtProduct("switchboard"), arguments: ["switch"], environment: environment) { tmux in
            _ = try await tmux.waitFor(text: "switch to>")
            _ = try await tmux.waitFor(text: "Grace Hopper")
            try await tmux.press("h", "o", "p")
            _ = try await tmux.waitFor(text: "switch to> hop")
            _ = try await tmux.waitFor(text: "1 of 2")
            try await tmux.press("Enter")
            #expect(try await tmux.exitStatus() == 0)
            let screen = try await tmux.screen()
            #expect(screen.contains("Switched to Grace Hopper") && !screen.contains("switch to>"), "\(tmux.framed(screen))")
        }
        try await withTmux(builtProduct("switchboard"), arguments: ["switch"], environment: environment) { tmux in
            _ = try await tmux.waitFor(text: "switch to>")
            try await tmux.press("Escape")
            #expect(try await tmux.exitStatus() == 12)
        }
        #expect(await cli.run("status", session: "tty-picker").stdout.hasPrefix("Grace Hopper"))
    }
}
