import Foundation
import Synchronization
import Testing
import TestBasics
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
        // Short beats, and the sign-ins' clock (shared with the tour's provider) twenty times as fast, so that
        // polls, slow_down's extra 5 s and the code that expires take a fraction of their seconds: a round takes
        // about four seconds, nearly all of it the script's sixty beats (a booth's, at the default pace, takes a
        // minute and a half).
        let arguments = ["demo", "tour", "--pace", "0.06", "--clock-speed", "20", "--idle", "3"]
        try await withTmux(builtProduct("switchboard"), arguments: arguments, environment: environment) { tmux in
            // The caption line, every twentieth of a second, until nine steps in a row have been seen, each after
            // the one before: every outcome once, wherever the first look fell (a busy machine may look late), and
            // the step that comes again after the tour started over. Each step lasts three beats or more; what a
            // step shows is seen with it. The looks are taken on the tmux session's own queue, never waiting for
            // the tests' busy pool; a step missed by a stalled look costs a round, not the test.
            let sightings = TourSightings()
            try await tmux.watch("a whole round and the start of the next", timeout: 120) { sightings.look(at: $0) }
            let (captions, seen) = sightings.all
            #expect(TourSightings.sawRound(captions), "\(captions)")
            #expect(captions.allSatisfy { $0.hasSuffix("any key: your turn") || $0.hasPrefix("Once more") }, "\(captions)")
            // What lasts long enough to be seen on any machine: Ada signed in through the denial, Grace through her
            // link, the merge's toast, and the next round's empty store.
            #expect(seen.isSuperset(of: ["2/8 ● Ada Lovelace", "5/8 ● Grace Hopper", "1/8 ○ Anonymous"]), "\(seen.sorted())")
            #expect(seen.contains { $0.hasSuffix("Merged the accounts into Ada Lovelace.") }, "\(seen.sorted())")
            let stores = try FileManager.default.contentsOfDirectory(atPath: temporary)
            #expect(stores.count == 1 && stores[0].hasPrefix("switchboard-tour-"), "\(stores)")
            // One store, a new round's: the first round's is gone.
            let folder = temporary + "/" + (stores.first ?? "")
            func roundStores() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".sqlite") } }
            try await waitUntil("a new round's store in \(folder)", within: 10) {
                let files = roundStores()
                return files.count == 1 && files[0] != "round-1.sqlite" && files[0].hasPrefix("round-")
            }

            // A key takes over, and does nothing else (x is no key of the chooser's anyway); the next ones are
            // the person's: Esc closes what the tour had open, a opens the provider list.
            try await tmux.press("x", "Escape", "a")
            let screen = try await tmux.waitUntil("the person's provider list") { $0.contains("Your turn") && $0.contains("Choose a provider:") }
            #expect(screen.contains("Demo Lab") && screen.contains("the tour goes on after 3 s without a key"))
            let personsStore = roundStores()
            // Three seconds without a key: the tour again, from its first step, in an empty store: a screen of
            // its first step whose list begins with "+ Add account" (its foot, with the count, may be under the
            // inspector), looked for as the tour goes on, as the steps above were (a step is short).
            try await tmux.watch("the tour to take the chooser back, in an empty store", timeout: 30) { screen in
                let firstRow = screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).first ?? ""
                return screen.contains("1/8 · Approved") && !screen.contains("Your turn") && firstRow.contains("+ Add a")
            }
            #expect(roundStores().count == 1 && roundStores() != personsStore, "a new round's store: \(roundStores()) after \(personsStore)")
            // Ctrl-C ends the tour, even while it has the chooser.
            try await tmux.press("C-c")
            #expect(try await tmux.exitStatus(within: 20) == 0)
            #expect(try await tmux.terminalLeftovers().isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path), "the person's store was never opened")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the tour's stores are gone with it")
    }
}

/// What the tour test saw of the tour, look by look: each new caption line,
/// and which of the outcomes' marks showed under which step.
private final class TourSightings: Sendable {
    private let state = Mutex((captions: [String](), seen: Set<String>()))

    /// The captions in the order they showed (none before the first frame), and the marks seen.
    var all: (captions: [String], seen: Set<String>) { state.withLock { $0 } }

    /// Takes in one screen; true once a whole round has been seen.
    func look(at screen: String) -> Bool {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard rows.count >= 29 else { return false }
        let caption = rows[28].trimmingCharacters(in: .whitespaces)
        return state.withLock { state in
            for shown in ["● Ada Lovelace", "Merged the accounts into Ada Lovelace.", "● Grace Hopper", "○ Anonymous"] where screen.contains(shown) {
                state.seen.insert("\(caption.prefix(3)) \(shown)")
            }
            if !caption.isEmpty && state.captions.last != caption { state.captions.append(caption) }
            return Self.sawRound(state.captions)
        }
    }

    /// Whether `captions` hold nine steps in a row, each the one after the one before (8 followed by 1).
    static func sawRound(_ captions: [String]) -> Bool {
        let steps = captions.compactMap { $0.count > 3 && $0.dropFirst(1).hasPrefix("/8") ? Int(String($0.prefix(1))) : nil }
        guard steps.count >= 9 else { return false }
        return (0...(steps.count - 9)).contains { start in (1..<9).allSatisfy { steps[start + $0] == steps[start + $0 - 1] % 8 + 1 } }
    }
}
