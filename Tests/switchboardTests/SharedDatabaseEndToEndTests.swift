import Foundation
import Store
import SwitchboardCore
import TestBasics
import Testing
import TestSupport

/// An `AppDatabase` kept open in this process while another process (the
/// chooser in tmux, or a command) uses the same file. SQLite's locks are
/// POSIX record locks, owned by the process: a second `AppDatabase` opened
/// here used to open and close the file outside SQLite (to check it and its
/// header), which dropped the first one's shared lock. The other process,
/// closing its last connection, then took the exclusive lock, checkpointed
/// and deleted the `-wal` and `-shm` files still in use here; the next
/// write here went to the deleted files and the next opener found the file
/// "malformed". Nothing here depends on timing: each step waits for the
/// one before (bounded), and the damage, when there is any, is certain.
@Suite("a database shared with another process")
struct SharedDatabaseEndToEndTests {
    @Test(
        "kept open here, another instance opened and dropped here, the chooser runs and quits: writes here still work, the chooser shows them, the file is whole",
        .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"),
        arguments: [Order.thisProcessCreates, .thisProcessSeeds, .chooserCreates])
    func withChooser(_ order: Order) async throws {
        let chooser = try ChooserFixture(session: "shared")
        defer { chooser.remove() }
        let session = SessionKey("shared")!
        var database = order == .chooserCreates ? nil : try AppDatabase(testing: chooser.database)
        if order == .thisProcessSeeds, let database { try Sample.signIn([Sample.adaGitHub], into: database, session: session) }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            try await tmux.waitFor(text: "q quit")
            if database == nil { database = try AppDatabase(testing: chooser.database) }
            let database = try #require(database)
            // A second instance here, read through and dropped, as a test reading back does.
            _ = try AppDatabase(testing: chooser.database).accounts()

            let grace = try Sample.signIn([Sample.graceGitHub], into: database, session: session)[0]
            _ = try database.switchAccount(to: grace, session: session)
            #expect(try database.active(in: session).id == grace)
            // The chooser's change feed shows it.
            try await tmux.waitUntil("the chooser shows Grace active") { statusBar($0).contains("● Grace Hopper") }
            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
        // The chooser has closed its connections; this process's still work, and the file is whole.
        let kept = try #require(database)
        _ = try kept.signOut(session: session)
        #expect(try kept.active(in: session) == .anonymous)
        let fresh = try AppDatabase(testing: chooser.database)
        #expect(try fresh.active(in: session) == .anonymous)
        #expect(try fresh.accounts().map(\.name).contains("Grace Hopper"))
    }

    enum Order: Sendable, CustomTestStringConvertible {
        /// This process creates the file (empty), then the chooser opens it.
        case thisProcessCreates
        /// This process creates the file and signs someone in, then the chooser opens it.
        case thisProcessSeeds
        /// The chooser creates the file, then this process opens it.
        case chooserCreates

        var testDescription: String {
            switch self {
            case .thisProcessCreates: "this process creates the file"
            case .thisProcessSeeds: "this process creates and fills the file"
            case .chooserCreates: "the chooser creates the file"
            }
        }
    }

    @Test("kept open here, another instance opened and dropped here, a command runs and exits: writes here still work and the file is whole")
    func withCommand() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("data/switchboard.sqlite")
        let session = SessionKey("shared")!
        let database = try AppDatabase(testing: path)
        let ada = try Sample.signIn([Sample.adaGitHub], into: database, session: session)[0]
        _ = try AppDatabase(testing: path).accounts()
        // A command's connections are the last ones outside this process: it closes them as it exits.
        let status = try await runProcess(
            builtProduct("switchboard"), ["status", "--json"], environment: ["SWITCHBOARD_DATABASE": path, "SWITCHBOARD_SESSION": "shared"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Ada Lovelace"), "\(status.stdout)")
        _ = try database.switchAccount(to: nil, session: session)
        _ = try database.switchAccount(to: ada, session: session)
        #expect(try database.active(in: session).id == ada)
        let fresh = try AppDatabase(testing: path)
        #expect(try fresh.active(in: session).id == ada)
    }
}
