import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The commands that only read, and the chooser, on a store this process
/// may not write (a read-only folder, the file 0644 and not its own): they
/// work; a write says plainly that the store is read-only and changes
/// nothing. Run as root, the commands run as nobody, who owns neither the
/// folder nor the file: root passes every permission bit.
@Suite("switchboard: a read-only store", .serialized)
struct ReadOnlyStoreCLITests {
    let switchboard = builtProduct("switchboard")

    /// A store with Ada (active in `tty-test`, her token stored) and Grace,
    /// in a folder made read-only; removed with `folder`.
    final class Store {
        let folder = TemporaryFolder()
        let data: String
        var path: String { data + "/switchboard.sqlite" }
        let grace: AccountID
        let asOther = geteuid() == 0

        init(adaToken: TokenSet = TokenSet(accessToken: "gho-ada-token")) throws {
            data = folder.file("ro")
            #expect(mkdir(data, 0o755) == 0)
            let path = data + "/switchboard.sqlite"
            do {  // closed at the end of the block: no -wal or -shm file stays
                let database = try AppDatabase(testing: path)
                let session = SessionKey("tty-test")!
                let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: session)
                try database.saveCredential(adaToken, for: Sample.adaGitHub.identity)
                _ = try database.switchAccount(to: ids[0], session: session)
                grace = ids[1]
            }
            if asOther { chmod(folder.path, 0o755) }
            chmod(path, 0o644)
            chmod(data, 0o555)
        }

        deinit {
            chmod(data, 0o755)
            folder.remove()
        }

        /// The command line that runs `arguments` as someone who may not write the store.
        func commandLine(_ switchboard: String, _ arguments: [String]) -> (String, [String]) {
            let full = arguments + ["--database", path]
            if asOther { return ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", switchboard] + full) }
            return (switchboard, full)
        }

        /// The files in the folder but the change signal.
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: data).filter { !$0.hasSuffix("-changed") }.sorted()
        }
    }

    func run(_ store: Store, _ arguments: String...) async throws -> ProcessResult {
        let (program, full) = store.commandLine(switchboard, arguments)
        return try await runProcess(program, full, environment: ["SWITCHBOARD_SESSION": "tty-test"], timeout: 20)
    }

    @Test("token, env, accounts, status and status --watch read it")
    func reads() async throws {
        let store = try Store()
        let before = FileManager.default.contents(atPath: store.path)
        let token = try await run(store, "token")
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout == "gho-ada-token\n")
        let env = try await run(store, "env")
        #expect(env.status == 0, "\(env.stderr)")
        #expect(env.stdout.contains("Ada Lovelace"), "\(env.stdout)")
        for arguments in [["accounts"], ["status"]] {
            let (program, full) = store.commandLine(switchboard, arguments)
            let result = try await runProcess(program, full, environment: ["SWITCHBOARD_SESSION": "tty-test"], timeout: 20)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("Ada Lovelace"), "\(arguments): \(result.stdout)")
        }
        let (program, full) = store.commandLine(switchboard, ["status", "--watch"])
        let watch = try LiveProcess(program, full, environment: ["SWITCHBOARD_SESSION": "tty-test"])
        let line = await watch.line(containing: "Ada Lovelace", within: 20)
        watch.terminate()
        #expect(line != nil, "status --watch printed no status: \(watch.lines) \(watch.stderr)")
        #expect(FileManager.default.contents(atPath: store.path) == before)
        #expect(try store.files() == ["switchboard.sqlite"])
    }

    @Test("a token that must be refreshed says why it cannot be: the store is read-only; nothing is spent or changed")
    func tokenNeedsRefresh() async throws {
        let expired = TokenSet(accessToken: "gho-old", refreshToken: "ghr-spend-me", expiresAt: Moment.now().advanced(by: -60))
        let store = try Store(adaToken: expired)
        let before = FileManager.default.contents(atPath: store.path)
        let token = try await run(store, "token")
        #expect(token.status != 0)
        #expect(token.stderr.contains(store.path) && token.stderr.contains("read-only") && token.stderr.contains("must be refreshed"),
                "\(token.stderr)")
        #expect(!token.stderr.contains("ghr-spend-me") && !token.stdout.contains("gho-old"))
        #expect(FileManager.default.contents(atPath: store.path) == before)
    }

    @Test("the chooser opens it read-only, says so, and a switch says the store is read-only and changes nothing",
          .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
    func chooser() async throws {
        let store = try Store()
        let before = FileManager.default.contents(atPath: store.path)
        let (program, arguments) = store.commandLine(switchboard, [])
        let environment = ["SWITCHBOARD_SESSION": "tty-test", "HOME": store.folder.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                           "XDG_CONFIG_HOME": store.folder.file("config"), "XDG_DATA_HOME": store.folder.file("share")]
        try await withTmux(program, arguments: arguments, environment: environment) { tmux in
            try await tmux.waitFor(text: "The store is read-only")
            try await tmux.waitFor(text: "Grace Hopper")
            try await tmux.press("j")
            try await tmux.press("Enter")
            let screen = try await tmux.waitFor(text: "The store failed")
            #expect(statusBar(screen).contains("Ada Lovelace"), "still Ada: \(tmux.framed(screen))")
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
        #expect(FileManager.default.contents(atPath: store.path) == before)
        #expect(try store.files() == ["switchboard.sqlite"])
    }
}
