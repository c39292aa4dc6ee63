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
        // The tour's own stores go in a folder under TMPDIR, removed when it ends.
        let temporary = cli.folder.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let environment = ["SWITCHBOARD_DATABASE": cli.path, "HOME": cli.folder.path, "TMPDIR": temporary]
        try await withTmux(builtProduct("switchboard"), arguments: ["demo", "tour", "--pace", "0.1", "--idle", "5"], environment: environment) { tmux in
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
                // Each step lasts a second or more: a look every quarter second sees it, with fewer tmux clients on a busy machine.
                try await tmux.waitFor(text: step.caption, timeout: 30, every: 0.25)
                if let shows = step.shows { try await tmux.waitFor(text: shows, timeout: 30, every: 0.25) }
            }
            var screen = try await tmux.screen()
            #expect(screen.contains("any key: your turn"))
            // Round two.
            try await tmux.waitFor(text: "1/8 · Approved", timeout: 30, every: 0.25)
            let stores = try FileManager.default.contentsOfDirectory(atPath: temporary)
            #expect(stores.count == 1 && stores[0].hasPrefix("switchboard-tour-"), "\(stores)")
            // One store, a new round's: the first round's is gone.
            let files = try FileManager.default.contentsOfDirectory(atPath: temporary + "/" + stores[0]).filter { $0.hasSuffix(".sqlite") }
            #expect(files.count == 1 && files[0] != "round-1.sqlite" && files[0].hasPrefix("round-"), "\(files)")

            // A key takes over, and does nothing else (x is no key of the chooser's anyway); the next ones are
            // the person's: Esc closes what the tour had open, a opens the provider list.
            try await tmux.press("x", "Escape", "a")
            screen = try await tmux.waitUntil("the person's provider list") { $0.contains("Your turn") && $0.contains("Choose a provider:") }
            #expect(screen.contains("Demo Lab") && screen.contains("the tour goes on after 5 s without a key"))
            // Five seconds without a key: the tour again, from its first step, in an empty store.
            screen = try await tmux.waitUntil("the tour takes the chooser back", timeout: 30, every: 0.25) {
                $0.contains("1/8 · Approved") && !$0.contains("Your turn") && !$0.contains("Choose a provider:")
            }
            // An empty store: the list begins with "+ Add account" (its foot, with the count, may be under the inspector).
            #expect(screen.split(separator: "\n").dropFirst(2).first?.contains("+ Add a") == true, "\(tmux.framed(screen))")
            // Ctrl-C ends the tour, even while it has the chooser.
            try await tmux.press("C-c")
            #expect(try await tmux.exitStatus(within: 20) == 0)
            #expect(try await tmux.terminalLeftovers().isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path), "the person's store was never opened")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the tour's stores are gone with it")
    }
}
