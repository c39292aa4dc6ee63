import Foundation
import Testing
import TestSupport

/// `switchboard` installed the way README says: the one executable copied
/// into an empty folder, run by someone with an empty home folder. Nothing
/// beside it (no resource folder, no second image), nothing in `HOME`.
@Suite("a copied switchboard runs alone")
struct InstallTests {
    /// A folder holding only a copy of the built executable, and an empty home.
    struct Installed {
        let folder = TemporaryFolder()
        var program: String { folder.file("bin/switchboard") }
        var home: String { folder.file("home") }
        /// Only what a login shell would set: PATH (the copy's folder first), HOME, LANG.
        var environment: [String: String] {
            ["PATH": folder.file("bin") + ":/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "SWITCHBOARD_SESSION": "kiosk"]
        }

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder.file("home"), withIntermediateDirectories: true)
            // Copied by cp, in a process of its own: a copy written here would be open for writing in
            // this process, so a child another test spawns meanwhile could hold it until its exec, and
            // running the copy then fails (ETXTBSY, "Text file busy").
            let copy = try runProcessBlocking("/bin/cp", [builtProduct("switchboard"), folder.file("bin/switchboard")])
            try #require(copy.status == 0, "cp: \(copy.stderr)")
            #expect(try manager.contentsOfDirectory(atPath: folder.file("bin")) == ["switchboard"])
        }

        /// Runs the copy with `arguments` in `environment` (added to PATH and HOME, which it replaces).
        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await runProcess(program, arguments, environment: environment)
        }
    }

    @Test("--version, status --json and accounts --json work, and make the database under the empty home")
    func commands() async throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        let version = try await installed.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
        let status = try await installed.run(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(#""active":null"#) && status.stdout.contains(#""session":"kiosk""#), "\(status.stdout)")
        let accounts = try await installed.run(["accounts", "--json"])
        #expect(accounts.status == 0 && accounts.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(accounts.stdout)\(accounts.stderr)")
        #expect(FileManager.default.fileExists(atPath: installed.home + "/.local/share/switchboard/switchboard.sqlite"))
        let providers = try await installed.run(["providers"])
        #expect(providers.status == 0 && providers.stdout.contains("demo"), "\(providers.stderr)")
    }

    @Test("the chooser opens with the built-in guide and theme, shows Anonymous, and q exits 0",
          .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
    func chooser() async throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        try await withTmux(installed.program, environment: installed.environment) { tmux in
            let screen = try await tmux.waitFor(text: "┌ Accounts")
            #expect(screen.contains("○ Anonymous"), "\(tmux.framed(screen))")
            #expect(screen.contains("┌ Tonight ─"), "the guide's listings are compiled in: \(tmux.framed(screen))")
            #expect(!screen.contains("⚠"), "a warning on screen: \(tmux.framed(screen))")
            // The default theme's colours, not monochrome's: the theme files are compiled in.
            #expect(try await tmux.styledScreen().contains("38;5;"))
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
    }
}
