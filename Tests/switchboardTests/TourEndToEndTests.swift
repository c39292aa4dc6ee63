import Foundation
import Testing
import TestSupport

/// `switchboard demo tour` in a real terminal (tmux): the one process test
/// of the tour; its script and timing are tested in-process (`TourTests`,
/// `TourLoopTests`).
@Suite("switchboard demo tour, end to end in tmux")
struct TourEndToEndTests {
    @Test("a whole round with a caption per outcome; a key hands it over; after --idle it starts again in an empty store; the person's store is never touched")
    func wholeRoundTakeOverResume() async throws {
        try #require(Tmux.isInstalled, "tmux is not installed (.ci/run installs it)")
        let cli = CLI()
        let environment = ["SWITCHBOARD_DATABASE": cli.path, "HOME": cli.folder.path]
        try await withTmux(builtProduct("switchboard"), arguments: ["demo", "tour", "--pace", "0.1", "--idle", "2"], environment: environment) { tmux in
            let steps: [(caption: String, shows: String?)] = [
                ("1/8 · Approved", "● Ada Lovelace"),
                ("2/8 · Denied", nil),
                ("3/8 · Expired", nil),
                ("4/8 · slow_down", nil),
                ("5/8 · Linked", nil),
                ("6/8 · Conflict", "Merged the accounts into Ada Lovelace."),
                ("7/8 · Switch", "2 accounts"),
                ("8/8 · Sign-out", "○ Anonymous"),
            ]
            for step in steps {
                try await tmux.waitFor(text: step.caption, timeout: 30)
                if let shows = step.shows { try await tmux.waitFor(text: shows, timeout: 30) }
            }
            var screen = try await tmux.screen()
            #expect(screen.contains("any key: your turn"))
            // Round two, in an empty store.
            screen = try await tmux.waitUntil("round two begins", timeout: 30) { $0.contains("1/8 · Approved") && $0.contains("0 accounts") }

            // A key takes over, and does nothing else; the next ones are the person's.
            try await tmux.press("x")
            try await tmux.waitFor(text: "Your turn: the chooser is yours")
            try await tmux.press("Escape")
            try await tmux.press("a")
            screen = try await tmux.waitFor(text: "Choose a provider:")
            #expect(screen.contains("Demo Lab") && screen.contains("the tour goes on after 2 s without a key"))
            // Two seconds without a key: the tour again, from its first step, in an empty store.
            screen = try await tmux.waitUntil("the tour takes the chooser back", timeout: 20) {
                $0.contains("1/8 · Approved") && !$0.contains("Your turn") && !$0.contains("Choose a provider:")
            }
            try await tmux.press("q")
            try await tmux.waitFor(text: "Your turn")
            try await tmux.press("q")
            #expect(try await tmux.exitStatus(within: 20) == 0)
            #expect(try await tmux.terminalLeftovers().isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path), "the person's store was never opened")
    }
}
