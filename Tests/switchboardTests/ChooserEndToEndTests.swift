import ScreenKit
import Foundation
import Store
import SwitchboardCore
import TestBasics
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The chooser as a person uses it: the built `switchboard` in a real
/// terminal (a private tmux server per test), keys in, `capture-pane` out.
/// Demo sign-ins are approved through the demo provider's HTTP API, which
/// the chooser starts in-process at the configured issuer's port (a free
/// port per test, so the tests run in parallel and need no network).
@Suite("chooser end to end in tmux", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct ChooserEndToEndTests {
    @Test("walk-through: add Ada and Grace with Demo, switch back to Ada, star a show, sign out, quit; the store agrees")
    func walkThrough() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        let starred = try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "┌ Accounts")
            #expect(statusBar(screen).contains("○ Anonymous"))
            #expect(statusBar(screen).contains("⌂ \(chooser.session)"))
            #expect(topBorder(screen).contains("┌ Tonight ─"))

            // Ada: a, Enter on Demo, approve as ada through the HTTP API.
            let ada = try await chooser.startDemoSignIn(in: tmux)
            try await chooser.approve(ada.code, as: "ada", at: ada.server)
            screen = try await tmux.waitFor(text: "Welcome, Ada Lovelace!", timeout: 20)
            #expect(screen.contains("A new account was made"))
            try await tmux.press("Enter")
            screen = try await tmux.waitFor(absenceOf: "Welcome, Ada Lovelace!")
            #expect(statusBar(screen).contains("● Ada Lovelace  demo"), "\(tmux.framed(screen))")
            #expect(statusBar(screen).contains("⌂ \(chooser.session)"))
            #expect(topBorder(screen).contains("┌ Tonight for Ada Lovelace ─"), "\(tmux.framed(screen))")
            #expect(accountsPane(screen).contains { $0.contains("Ada Lovelace") && $0.contains("●") })
            #expect(accountsPane(screen).contains { $0.contains("demo ✓") })

            // The in-process provider announced 5 s between polls; 1 s from now on keeps the test short.
            try await chooser.post("/api/settings", ["interval": 1], to: ada.server)

            // Grace the same way; Esc closes the welcome this time.
            let grace = try await chooser.startDemoSignIn(in: tmux)
            #expect(grace.code != ada.code)
            try await chooser.approve(grace.code, as: "grace", at: grace.server)
            try await tmux.waitFor(text: "Welcome, Grace Hopper!", timeout: 20)
            try await tmux.press("Escape")
            screen = try await tmux.waitFor(absenceOf: "Welcome, Grace Hopper!")
            #expect(statusBar(screen).contains("● Grace Hopper  demo"), "\(tmux.framed(screen))")
            #expect(topBorder(screen).contains("┌ Tonight for Grace Hopper ─"))
            #expect(screen.contains("2 accounts"))

            // Back to Ada with the keys: move the selection to her row, Enter.
            try await selectAccount("Ada Lovelace", in: tmux)
            try await tmux.press("Enter")
            screen = try await tmux.waitUntil("Ada is active again") { statusBar($0).contains("● Ada Lovelace") }
            #expect(!statusBar(screen).contains("Grace"))
            #expect(topBorder(screen).contains("┌ Tonight for Ada Lovelace ─"))
            // The active name is drawn in the statusActive role (green, bold), not as plain status bar text.
            let styledStatus = try await tmux.styledScreen().components(separatedBy: "\n")[0]
            let nameStyle = sgr(before: "● Ada Lovelace", in: styledStatus)
            #expect(nameStyle.contains("38;5;77") && nameStyle.contains("1"), "status bar styles: \(styledStatus.debugDescription)")
            #expect(!sgr(before: "  demo", in: styledStatus).isEmpty, "the providers go back to the status bar's own style")

            // Star a show: Tab to the guide, one row down, f.
            let before = guideRows(screen)
            let current = try #require(before.firstIndex { $0.marker == "›" }, "the guide marks its selection: \(tmux.framed(screen))")
            #expect(!before.contains { $0.starred })
            let chosen = before[min(current + 1, before.count - 1)]
            try await tmux.press("Tab", "Down", "f")
            screen = try await tmux.waitFor(text: "★")
            let after = guideRows(screen)
            #expect(after.first?.title == chosen.title && after.first?.starred == true, "\(tmux.framed(screen))")
            #expect(after.filter(\.starred).count == 1)
            #expect(after.dropFirst().map(\.title) == before.map(\.title).filter { $0 != chosen.title }.prefix(after.count - 1).map { $0 })

            // Sign out: anonymous, the plain guide without stars.
            try await tmux.press("s")
            screen = try await tmux.waitUntil("the session is anonymous") { statusBar($0).contains("○ Anonymous") }
            #expect(topBorder(screen).contains("┌ Tonight ─") && !topBorder(screen).contains("Tonight for"), "\(tmux.framed(screen))")
            #expect(!screen.contains("★"))
            #expect(guideRows(screen).map(\.title) == before.map(\.title))

            // Quit: exit status 0 and the terminal as it was.
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
            #expect(try await !tmux.screen().contains("┌ Accounts"))
            return chosen.title
        }

        // The store after quitting: two accounts, the session anonymous, Ada's star kept.
        let database = try AppDatabase(testing: chooser.database)
        let accounts = try database.accounts()
        #expect(Set(accounts.map(\.name)) == ["Ada Lovelace", "Grace Hopper"])
        #expect(accounts.allSatisfy { $0.identities.map(\.provider.rawValue) == ["demo"] })
        #expect(try database.active(in: SessionKey(chooser.session)!) == .anonymous)
        let ada = try #require(accounts.first { $0.name == "Ada Lovelace" })
        let grace = try #require(accounts.first { $0.name == "Grace Hopper" })
        #expect(try database.favourites(of: ada.id) == [try showID(titled: starred)])
        #expect(try database.favourites(of: grace.id).isEmpty)
        // And the CLI says the same.
        let environment = chooser.cliEnvironment
        let status = try await runProcess(builtProduct("switchboard"), ["status", "--json"], environment: environment)
        #expect(status.status == 0)
        #expect(status.stdout.contains("\"active\":null"), "\(status.stdout)")
    }

    @Test("resizing during the sign-in dialog keeps the code; the QR code shows only where it fits; too small asks to enlarge")
    func resizeDuringSignIn() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "┌ Accounts")
            let signIn = try await chooser.startDemoSignIn(in: tmux)
            var screen = signIn.screen
            let qrBefore = qrRows(screen)
            #expect(qrBefore.count >= 10, "a QR code at 100×30: \(tmux.framed(screen))")
            #expect(!screen.contains("QR code hidden"))

            // Narrower: the QR code is hidden and a note says what it needs.
            try await tmux.resize(width: 70, height: 30)
            screen = try await tmux.waitUntil("the dialog is redrawn at 70×30 without the QR code") {
                isWholeFrame($0, width: 70, height: 30) && $0.contains(signIn.spacedCode) && qrRows($0).isEmpty && $0.contains("QR code hidden")
            }
            #expect(screen.contains("┌ Sign in with Demo") && screen.contains("switchboard demo approve \(signIn.code)"), "\(tmux.framed(screen))")

            // The minimum, 60×16: still the code, no QR code.
            try await tmux.resize(width: 60, height: 16)
            screen = try await tmux.waitUntil("the dialog is redrawn at 60×16") {
                isWholeFrame($0, width: 60, height: 16) && $0.contains(signIn.spacedCode) && $0.contains("Sign in with Demo") && qrRows($0).isEmpty
            }
            let keyBar = screen.components(separatedBy: "\n").filter { !$0.isEmpty }.last ?? ""
            #expect(statusBar(screen).contains("○ Anonymous") && keyBar.contains("esc cancel"), "\(tmux.framed(screen))")

            // Below the minimum: only the message.
            try await tmux.resize(width: 50, height: 12)
            screen = try await tmux.waitFor(text: "enlarge it to go on")
            #expect(screen.contains("This one is 50×12"))
            #expect(!screen.contains(signIn.spacedCode) && !screen.contains("┌ Accounts"))

            // Back to 100×30: the same dialog, the same code, the same QR code.
            try await tmux.resize(width: 100, height: 30)
            screen = try await tmux.waitUntil("the dialog is back at 100×30") {
                isWholeFrame($0, width: 100, height: 30) && $0.contains(signIn.spacedCode) && !qrRows($0).isEmpty
            }
            #expect(qrRows(screen) == qrBefore)
            #expect(screen.contains("switchboard demo approve \(signIn.code)"))
            #expect(!screen.contains("enlarge"))
            // Dark modules are drawn black on white (the qrCode role).
            let styled = try await tmux.styledScreen()
            #expect(styled.contains("\u{1B}[38;5;16m\u{1B}[48;5;231m") || styled.contains("\u{1B}[38;5;16;48;5;231m"),
                    "QR colours: \(styled.debugDescription.prefix(3000))")

            // Esc cancels: back to the main screen, still anonymous.
            try await tmux.press("Escape")
            screen = try await tmux.waitFor(absenceOf: signIn.spacedCode)
            #expect(!screen.contains("Sign in with Demo"))
            #expect(statusBar(screen).contains("○ Anonymous"))
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
        }
        #expect(try AppDatabase(testing: chooser.database).accounts().isEmpty)
    }

    @Test("at the size the “QR code hidden: enlarge the terminal to W×H” note asks for, the QR code shows")
    func qrCodeNoteSize() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment, width: 70, height: 30) { tmux in
            try await tmux.waitFor(text: "┌ Accounts")
            let signIn = try await chooser.startDemoSignIn(in: tmux)
            let screen = try await tmux.waitFor(text: "QR code hidden")
            #expect(qrRows(screen).isEmpty)
            let match = try #require(words(screen).joined(separator: " ").firstMatch(of: /enlarge the terminal to (\d+)×(\d+)/), "\(tmux.framed(screen))")
            let (width, height) = (try #require(Int(match.output.1)), try #require(Int(match.output.2)))
            try await tmux.resize(width: width, height: height)
            try await tmux.waitUntil("the QR code shows at \(width)×\(height), as the note promised") {
                $0.contains(signIn.spacedCode) && !qrRows($0).isEmpty
            }
            try await tmux.press("Escape")
            try await tmux.waitFor(absenceOf: signIn.spacedCode)
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
    }

    @Test("a display name with escape sequences and a 10 kB tail renders safely inside the frame")
    func hostileDisplayName() async throws {
        let chooser = try ChooserFixture(session: "other")
        defer { chooser.remove() }
        let hostile = "\u{1B}]0;pwned\u{07}Mallory\u{1B}[2J\u{1B}[31m" + String(repeating: "A", count: 10_000)
        let database = try AppDatabase(testing: chooser.database)
        let result = try database.signIn(
            LinkedIdentity(identity: Identity(provider: "demo", subject: "666"), displayName: hostile, email: "m@example.org"),
            mode: .signIn, session: SessionKey("other")!)
        guard case .completed = result else { Issue.record("could not store the account: \(result)"); return }

        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            let screen = try await tmux.waitFor(text: "q quit")
            let rows = screen.components(separatedBy: "\n").dropLast(screen.hasSuffix("\n") ? 1 : 0).map { $0 }
            let framed = tmux.framed(screen)
            try #require(rows.count == 30, "\(framed)")
            // The frame is where it belongs, every row of it.
            #expect(rows[0].hasPrefix(" Switchboard"), "\(framed)")
            // The name is cut (…) before the session marker would leave the bar.
            #expect(rows[0].contains("● MalloryAAAA") && rows[0].contains("…") && rows[0].hasSuffix("⌂ other"), "\(framed)")
            #expect(rows[1].hasPrefix("┌ Accounts "), "\(framed)")
            #expect(rows[1].contains("┐┌ Tonight for MalloryAAAA") && rows[1].hasSuffix("┐"), "\(framed)")
            for row in rows[2..<28] {
                let cells = Array(row)
                #expect(cells.count == 100 && cells[0] == "│" && cells[32] == "│" && cells[33] == "│" && cells[99] == "│",
                        "a body row out of frame: \(row.debugDescription)\n\(framed)")
            }
            #expect(rows[28].hasPrefix("└") && rows[28].contains("┘└") && rows[28].hasSuffix("┘"), "\(framed)")
            #expect(rows[29].contains("a add") && rows[29].contains("q quit"), "\(framed)")
            // The name: "Mallory" and its A's, cut short inside the accounts pane.
            let nameRow = try #require(rows.first { $0.hasPrefix("│ ▸ Mallory") }, "\(framed)")
            let inPane = String(Array(nameRow)[0..<33])
            #expect(inPane.hasPrefix("│ ▸ MalloryAAAAAAAAAAAAAAAA") && inPane.contains("…"), "\(nameRow.debugDescription)")
            // Nothing of the escape sequences got through.
            for leftover in ["pwned", "[31m", "[2J", "]0;", "\u{1B}"] {
                #expect(!screen.contains(leftover), "“\(leftover.debugDescription)” on screen:\n\(framed)")
            }
            #expect(try await tmux.format("#{pane_title}") == Tmux.initialTitle)
            // No colour switched on by the name: "Mallory" and the A's share one style, and nothing is red.
            let styled = try await tmux.styledScreen()
            #expect(styled.contains("MalloryAAAAAAAAAA"))
            #expect(!styled.contains("\u{1B}[31m"))
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
        }
    }

    @Test("a PIN-protected switch: the lock mark, the masked dialog refuses a wrong PIN and takes the right one; switch on a terminal asks without echo")
    func pinProtectedSwitch() async throws {
        let chooser = try ChooserFixture(session: "pin")
        defer { chooser.remove() }
        let ids = try { () throws -> [AccountID] in
            let database = try AppDatabase(testing: chooser.database)
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: SessionKey("pin")!)
            _ = try database.switchAccount(to: ids[0], session: SessionKey("pin")!)
            try database.setPIN("2468", for: .account(ids[1]), proof: nil)
            return ids
        }()

        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "q quit")
            #expect(accountsPane(screen).contains { $0.contains("Grace Hopper") && $0.contains("🔒") }, "\(tmux.framed(screen))")
            #expect(!accountsPane(screen).contains { $0.contains("Ada Lovelace") && $0.contains("🔒") })
            try await selectAccount("Grace Hopper", in: tmux)
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "PIN for Grace Hopper")
            try await tmux.press("1", "3", "5", "7")
            screen = try await tmux.waitFor(text: "PIN  ••••")
            #expect(!screen.contains("1357"))
            try await tmux.press("Enter")
            screen = try await tmux.waitFor(text: "Wrong PIN. Try again.")
            #expect(statusBar(screen).contains("● Ada Lovelace"), "\(tmux.framed(screen))")
            #expect(try AppDatabase(testing: chooser.database).pinAttempts(of: .account(ids[1])).failures == 1)
            try await tmux.press("2", "4", "6", "8", "Enter")
            screen = try await tmux.waitUntil("Grace is active") { statusBar($0).contains("● Grace Hopper") && !$0.contains("PIN for") }
            #expect(!screen.contains("2468"))
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
        #expect(try AppDatabase(testing: chooser.database).active(in: SessionKey("pin")!).id == ids[1])

        // `switch` on a terminal: the prompt, no echo, then the switch.
        _ = try AppDatabase(testing: chooser.database).switchAccount(to: ids[0], session: SessionKey("pin")!)
        try await withTmux(builtProduct("switchboard"), arguments: ["switch", "Grace Hopper"], environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "PIN for Grace Hopper:")
            try await tmux.press("2", "4", "6", "8", "Enter")
            #expect(try await tmux.exitStatus() == 0)
            // The prompt's line is still on the screen: what was typed there was not echoed.
            #expect(!(try await tmux.screen()).contains("2468"))
        }
        #expect(try AppDatabase(testing: chooser.database).active(in: SessionKey("pin")!).id == ids[1])

        // `pin set` on a terminal: asked twice without echo; two different PINs change nothing.
        try await withTmux(builtProduct("switchboard"), arguments: ["pin", "set", "Ada Lovelace"], environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "New PIN for Ada Lovelace:")
            try await tmux.press("1", "2", "3", "4", "Enter")
            try await tmux.waitFor(text: "The new PIN again:")
            try await tmux.press("1", "2", "3", "5", "Enter")
            #expect(try await tmux.exitStatus() == 64)
            #expect(!(try await tmux.screen()).contains("123"))
        }
        #expect(try AppDatabase(testing: chooser.database).protectedAccounts() == [ids[1]])
        try await withTmux(builtProduct("switchboard"), arguments: ["pin", "set", "Ada Lovelace"], environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "New PIN for Ada Lovelace:")
            try await tmux.press("1", "2", "3", "4", "Enter")
            try await tmux.waitFor(text: "The new PIN again:")
            try await tmux.press("1", "2", "3", "4", "Enter")
            #expect(try await tmux.exitStatus() == 0)
            #expect(!(try await tmux.screen()).contains("1234"))
        }
        #expect(try AppDatabase(testing: chooser.database).protectedAccounts() == Set(ids))
    }

    @Test("q quits a terminal below the minimum size, with status 0")
    func quitWhenTooSmall() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment, width: 50, height: 12) { tmux in
            let screen = try await tmux.waitFor(text: "enlarge it to go on")
            #expect(screen.contains("at least 60×16"))
            #expect(screen.contains("q quits"))
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
        }
    }

    @Test("Ctrl-C quits cleanly with status 0")
    func controlC() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "q quit")
            try await tmux.press("C-c")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
        }
    }

    @Test("Ctrl-C while a sign-in waits for approval cancels it and quits with status 0")
    func controlCDuringSignIn() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "q quit")
            _ = try await chooser.startDemoSignIn(in: tmux)
            try await tmux.press("C-c")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try await tmux.terminalLeftovers() == [])
        }
        #expect(try AppDatabase(testing: chooser.database).accounts().isEmpty)
    }
}

/// Where the chooser is when a signal comes.
enum SignalScene: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case mainScreen = "the main screen"
    case helpOverlay = "the help overlay"
    var testDescription: String { rawValue }
}

extension ChooserEndToEndTests {
    @Test("SIGTERM, SIGHUP and SIGQUIT quit cleanly with status 128 + the signal, whatever is on screen",
          arguments: [SIGTERM, SIGHUP, SIGQUIT], SignalScene.allCases)
    func signals(_ signal: Int32, scene: SignalScene) async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "q quit")
            if scene == .helpOverlay {
                try await tmux.press("?")
                try await tmux.waitFor(text: "Show this help")
            }
            kill(try await tmux.programID(), signal)
            #expect(try await tmux.exitStatus() == 128 + signal)
            #expect(try await tmux.terminalLeftovers() == [])
        }
    }
}

extension ChooserEndToEndTests {
    @Test("Ctrl-Z under a shell with job control: the prompt comes back with the terminal restored; fg redraws the chooser")
    func suspendAndResume() async throws {
        let chooser = try ChooserFixture()
        defer { chooser.remove() }
        // An interactive shell; the chooser under an `sh -c` of its own, so
        // the whole job (not only the chooser) has to stop.
        let environment = chooser.environment.merging(["PS1": "job$ "]) { $1 }
        try await withTmux("/bin/sh", arguments: ["-i"], environment: environment) { tmux in
            try await tmux.waitFor(text: "job$")
            let modes = tmux.folder.file("tty-stopped")
            try await tmux.press("-l", "sh -c '\"$0\"; echo \"chooser-exit=$?\"' \(builtProduct("switchboard"))")
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "q quit", timeout: 20)
            try await tmux.press("C-z")
            func promptIsLast(_ screen: String) -> Bool {
                screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == "job$"
            }
            var screen = try await tmux.waitUntil("the prompt is back") { $0.contains("Stopped") && promptIsLast($0) }
            #expect(!screen.contains("q quit"))
            // And it stays stopped: the shell has the terminal (it runs what is typed), and nothing takes it back on its own.
            try await tmux.press("-l", "echo fence-$((6*7))")
            try await tmux.press("Enter")
            screen = try await tmux.waitFor(text: "\nfence-42")
            #expect(promptIsLast(screen) && !screen.contains("q quit"), "\(tmux.framed(screen))")
            #expect(try await tmux.format("#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_standard_flag}") == "0 1 0 0")
            try await tmux.press("-l", "stty -g > \(modes)")
            try await tmux.press("Enter")
            try await tmux.waitUntil("stty ran") { _ in (try? String(contentsOfFile: modes, encoding: .utf8))?.hasSuffix("\n") == true }
            let before = try String(contentsOfFile: tmux.folder.file("tty-before"), encoding: .utf8)
            #expect(try String(contentsOfFile: modes, encoding: .utf8) == before)
            // What is typed at the prompt goes to the shell, not to the chooser later.
            try await tmux.press("-l", "echo typed-at-the-prompt")
            try await tmux.press("Enter")
            try await tmux.waitFor(text: "\ntyped-at-the-prompt")

            try await tmux.press("-l", "fg")
            try await tmux.press("Enter")
            screen = try await tmux.waitUntil("the chooser is drawn again") {
                $0.contains("┌ Accounts") && $0.contains("q quit") && !$0.contains("job$")
            }
            #expect(screen.contains("⌂ \(chooser.session)"))
            #expect(try await tmux.format("#{alternate_on}") == "1")
            try await tmux.press("q")
            screen = try await tmux.waitFor(text: "chooser-exit=0")
            #expect(try await tmux.format("#{alternate_on} #{cursor_flag} #{mouse_any_flag}") == "0 1 0")
        }
    }
}

// MARK: - The chooser's surroundings

/// A fresh database and a configuration that puts the demo provider on a
/// free loopback port, in a temporary folder.
struct ChooserFixture: Sendable {
    let folder = TemporaryFolder()
    let session: String
    let port: UInt16
    /// Set when the chooser is a station of a fleet: its config.toml names the shared store and the station.
    let store: String?

    /// `demo`: a demo provider already serving at its port (`DemoServe`);
    /// without one, a port that was free a moment ago, where the chooser
    /// starts its own.
    /// `storeTimeout`: `[store] timeout`, the seconds the shared store's server has to answer.
    init(session: String = "e2e", store: String? = nil, station: String? = nil, storeTimeout: Int? = nil, demo: DemoServe? = nil) throws {
        self.session = session
        self.store = store
        port = try demo?.port ?? freeLoopbackPort()
        let shared = store.map {
            "\n[store]\nurl = \"\($0)\"\n" + (station.map { "station = \"\($0)\"\n" } ?? "") + (storeTimeout.map { "timeout = \($0)\n" } ?? "")
        } ?? ""
        try ("[providers.demo]\nissuer = \"http://127.0.0.1:\(port)\"\n" + shared)
            .write(toFile: folder.file("config.toml"), atomically: true, encoding: .utf8)
    }

    var database: String { folder.file("data/switchboard.sqlite") }

    /// For the CLI run afterwards.
    var cliEnvironment: [String: String] {
        var environment = ["SWITCHBOARD_SESSION": session, "SWITCHBOARD_CONFIG": folder.file("config.toml")]
        if store == nil { environment["SWITCHBOARD_DATABASE"] = database }
        return environment
    }

    /// For the chooser in tmux: nothing of the person running the tests leaks in.
    var environment: [String: String] {
        cliEnvironment.merging([
            "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("share"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        ]) { $1 }
    }

    func remove() { folder.remove() }


    /// Presses a, picks Demo, and waits for the code; checks the dialog says
    /// how to approve it. Returns the code (plain and as shown), the demo
    /// provider's address and the screen.
    func startDemoSignIn(in tmux: Tmux) async throws -> (code: String, spacedCode: String, server: URL, screen: String) {
        try await tmux.press("a")
        try await tmux.waitFor(text: "Choose a provider:")
        try await tmux.waitFor(text: "▸ Demo")
        try await tmux.press("Enter")
        let pattern = /(?:[A-Z0-9] ){4}- (?:[A-Z0-9] ){3}[A-Z0-9]/
        let screen = try await tmux.waitUntil("a user code shows", timeout: 15) { $0.contains(pattern) && $0.contains("demo approve") }
        let spaced = String(try #require(screen.firstMatch(of: pattern)).output)
        let code = spaced.replacingOccurrences(of: " ", with: "")
        // The approve command, with --server because the provider is not at the default port
        // (however the dialog wraps it, and with the QR code beside it).
        let command = ["switchboard", "demo", "approve", code, "--server", "http://127.0.0.1:\(port)"]
        #expect(words(screen).contains(command), "\(tmux.framed(screen))")
        #expect(screen.contains("Sign in with Demo"))
        #expect(screen.contains("http://127.0.0.1:\(port)/device"))
        return (code, spaced, URL(string: "http://127.0.0.1:\(port)")!, screen)
    }

    /// Approves `code` as `person` with `POST /api/approve`.
    func approve(_ code: String, as person: String, at server: URL) async throws {
        let answer = try await post("/api/approve", ["user_code": code, "person": person, "deny": false], to: server)
        #expect(answer["outcome"] as? String == "approved" && answer["person"] as? String == person, "\(answer)")
    }

    /// POSTs a JSON object; expects 200 and returns the JSON answer.
    @discardableResult
    func post(_ path: String, _ body: [String: any Sendable], to server: URL) async throws -> [String: Any] {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let text = String(decoding: data, as: UTF8.self)
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TmuxError("POST \(path) answered \(status): \(text)")
        }
        return object
    }
}

/// `switchboard demo serve` on a free port, as a person runs it in another
/// terminal, asking clients to poll every `interval` s: a chooser whose
/// fixture names it (`ChooserFixture(demo:)`) finds it there rather than
/// starting one of its own, whose codes ask for the usual 5 s. For tests
/// about something else than the demo provider's own start, so that an
/// approval shows within a second. Running until `stop()`.
struct DemoServe: Sendable {
    let process: LiveProcess
    let port: UInt16

    init(interval: Int = 1) async throws {
        process = try LiveProcess(builtProduct("switchboard"), ["demo", "serve", "--port", "0", "--interval", "\(interval)"])
        let banner = try #require(await process.line(containing: "Demo provider at"), "demo serve did not start: \(process.stderr)")
        port = try #require(URL(string: String(banner.split(separator: " ").last ?? "")).flatMap { $0.port }.map { UInt16($0) }, "\(banner)")
    }

    func stop() { process.terminate() }
}

// MARK: - Reading the screen

/// Row 0.
func statusBar(_ screen: String) -> String {
    screen.components(separatedBy: "\n").first ?? ""
}

/// Row 1: the top borders of the accounts and guide panes with their titles.
func topBorder(_ screen: String) -> String {
    let rows = screen.components(separatedBy: "\n")
    return rows.count > 1 ? rows[1] : ""
}

/// The accounts pane's rows (the left 33 columns of a 100-column screen).
func accountsPane(_ screen: String) -> [String] {
    screen.components(separatedBy: "\n").map { String($0.prefix(33)) }
}

/// A listing in the guide pane.
private struct GuideRow: Equatable {
    /// "›" on the selected row while the guide is not focused, else " ".
    let marker: Character
    let title: String
    let starred: Bool
}

/// The guide pane's listings, top to bottom: rows like `│›19:00  Channel 4   Title     ★ │`.
private func guideRows(_ screen: String) -> [GuideRow] {
    let row = /^│([ ›])(\d\d:\d\d)  (.{11}) (.*?)\s*(★)?\s*│$/
    return screen.components(separatedBy: "\n").compactMap { line in
        let guide = String(line.dropFirst(33))
        guard let match = guide.wholeMatch(of: row) else { return nil }
        return GuideRow(marker: match.output.1.first ?? " ", title: String(match.output.4), starred: match.output.5 != nil)
    }
}

/// The screen's words in reading order, without frames, QR code blocks and
/// the "…" of cut-off rows: what a person reads, however lines wrap.
private func words(_ screen: String) -> [String] {
    let drawing = Set("│┌┐└┘─▀▄█…")
    return screen.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.allSatisfy(drawing.contains) }
}

/// Whether `screen` is a whole frame drawn for a `width`×`height` terminal
/// (not the last one cut down by a resize): the status bar reaching the last
/// column but one (the last is a space, which capture-pane leaves out), a
/// bottom border on the last row but one (the panes', from the first column
/// to the last, or the dialog's, which clears the panes' border row beside it
/// when it reaches it), the dialog's key bar below.
private func isWholeFrame(_ screen: String, width: Int, height: Int) -> Bool {
    var rows = screen.components(separatedBy: "\n")
    if rows.last == "" { rows.removeLast() }
    guard rows.count == height else { return false }
    let border = rows[height - 2].drop { $0 == " " }
    return rows[0].count == width - 1 && border.first == "└" && border.last == "┘" && rows[height - 1].contains("esc cancel")
}

/// The half-block rows of the QR code: each row's run from the first to the last ▀▄█.
private func qrRows(_ screen: String) -> [String] {
    let blocks: Set<Character> = ["▀", "▄", "█"]
    return screen.components(separatedBy: "\n").compactMap { line in
        guard let first = line.firstIndex(where: blocks.contains), let last = line.lastIndex(where: blocks.contains) else { return nil }
        return String(line[first...last])
    }
}

/// The SGR sequences (their parameters, e.g. "1", "38;5;77") right in front
/// of `text` in a `capture-pane -e` line: the style that changed there.
private func sgr(before text: String, in line: String) -> [String] {
    guard let range = line.range(of: text) else { return [] }
    var prefix = line[..<range.lowerBound]
    var parameters: [String] = []
    while prefix.hasSuffix("m"), let start = prefix.range(of: "\u{1B}[", options: .backwards) {
        let body = prefix[start.upperBound..<prefix.index(before: prefix.endIndex)]
        guard body.allSatisfy({ $0.isNumber || $0 == ";" }) else { break }
        parameters.insert(String(body), at: 0)
        prefix = prefix[..<start.lowerBound]
    }
    return parameters
}

/// Moves the accounts pane's selection (▸) to the row of `name` with the
/// arrow keys, one step at a time, waiting for each step to show.
func selectAccount(_ name: String, in tmux: Tmux) async throws {
    func rowIndex(_ screen: String, _ match: (String) -> Bool) -> Int? {
        screen.components(separatedBy: "\n").map { String($0.prefix(33)) }.firstIndex(where: match)
    }
    for _ in 0..<8 {
        let screen = try await tmux.screen()
        guard let selected = rowIndex(screen, { $0.contains("▸ ") }),
              let target = rowIndex(screen, { $0.hasPrefix("│ ▸ \(name)") || $0.hasPrefix("│   \(name)") })
        else { throw TmuxError("no selection or no row for \(name):\n\(tmux.framed(screen))") }
        if selected == target { return }
        try await tmux.press(target < selected ? "Up" : "Down")
        try await tmux.waitUntil("the selection moves") { rowIndex($0, { $0.contains("▸ ") }) != selected }
    }
    throw TmuxError("the selection did not reach \(name):\n\(tmux.framed(try await tmux.screen()))")
}

/// The id of the show titled `title` in the listings shipped with the package.
private func showID(titled title: String) throws -> String {
    let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/ChooserUI/Resources/guide.toml")
    let text = try String(contentsOf: guide, encoding: .utf8)
    for block in text.components(separatedBy: "[[show]]") where block.contains("title = \"\(title)\"") {
        if let match = block.firstMatch(of: /id = "([^"]+)"/) { return String(match.output.1) }
    }
    throw TmuxError("no show titled \(title) in \(guide.path)")
}
