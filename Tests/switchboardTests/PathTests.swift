import Foundation
import Testing
import TestSupport
import Store
import SwitchboardCore

/// The mode bits of `path` (file type included), or nil when it is missing.
private func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode : nil
}

private func exists(_ path: String) -> Bool { fileMode(path) != nil }

/// Whether a character device can be made here (only root may).
private let canMakeDevices = geteuid() == 0

@Suite("switchboard: the database and configuration paths")
struct PathTests {
    let switchboard = builtProduct("switchboard")

    /// Runs `switchboard` with a clean environment plus `environment`, ending it after 20 s.
    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await runProcess(switchboard, arguments, environment: ["SWITCHBOARD_SESSION": "tty-test"].merging(environment) { $1 },
                       timeout: 20)
    }

    @Test("a FIFO, a folder or a device as the database is refused by what it is (exit 5) and left as it was",
          arguments: ["fifo", "folder", "device"])
    func specialDatabase(kind: String) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("special")
        switch kind {
        case "fifo": #expect(mkfifo(path, 0o644) == 0)
        case "folder": #expect(mkdir(path, 0o755) == 0)
        default:
            guard canMakeDevices else { return }
            // The same device as /dev/null (major 1, minor 3), in a folder of the test's own.
            #expect(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
        }
        let before = try #require(fileMode(path))
        for command in [["status"], ["accounts"], ["sign-out"]] {
            let result = try await run(command + ["--database", path])
            #expect(result.status == 5, "\(command): \(result.stderr)")
            let what = ["fifo": "a FIFO", "folder": "a folder", "device": "a character device"][kind]!
            #expect(result.stderr.contains("\(path): is \(what)"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was changed"))
        }
        #expect(fileMode(path) == before)
        for suffix in ["-journal", "-wal", "-shm"] { #expect(!exists(path + suffix), "\(suffix)") }
    }

    @Test("a FIFO or a folder as the configuration file is refused by what it is (exit 6) without waiting",
          arguments: ["fifo", "folder"])
    func specialConfig(kind: String) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("config.toml")
        if kind == "fifo" { #expect(mkfifo(path, 0o644) == 0) } else { #expect(mkdir(path, 0o755) == 0) }
        let started = Date()
        let result = try await run(["providers", "--config", path, "--database", folder.file("db.sqlite")])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains(kind == "fifo" ? "a FIFO" : "a folder"))
        #expect(Date().timeIntervalSince(started) < 15)
    }

    @Test("a damaged database is refused (exit 5) with no -wal or -shm beside it and its mode unchanged")
    func damaged() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        // A real Switchboard database, whose pages after the header are then overwritten.
        #expect(try await run(["accounts", "--database", path]).status == 0)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes.replaceSubrange(100..<bytes.count, with: repeatElement(0xFF, count: bytes.count - 100))
        try bytes.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        for command in [["status"], ["accounts"], ["sign-out"]] {
            let result = try await run(command + ["--database", path])
            #expect(result.status == 5, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("nothing was changed"))
            for suffix in ["-wal", "-shm", "-journal"] { #expect(!exists(path + suffix), "\(command) \(suffix)") }
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        #expect(fileMode(path).map { $0 & 0o777 } == 0o644)
    }

    @Test("Switchboard's own folder is tightened to 0700; the folder it is in is not")
    func tightensOwnFolder() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let data = folder.file("data")
        #expect(mkdir(data, 0o755) == 0)
        #expect(mkdir(data + "/switchboard", 0o755) == 0)
        chmod(data, 0o755)
        chmod(data + "/switchboard", 0o755)
        let result = try await run(["accounts"], environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileMode(data + "/switchboard").map { $0 & 0o777 } == 0o700)
        #expect(fileMode(data).map { $0 & 0o777 } == 0o755)

        // A database named by --database leaves its folder alone.
        let other = folder.file("elsewhere")
        #expect(mkdir(other, 0o755) == 0)
        chmod(other, 0o755)
        #expect(try await run(["accounts", "--database", other + "/db.sqlite"]).status == 0)
        #expect(fileMode(other).map { $0 & 0o777 } == 0o755)
    }

    /// The files of a folder but the change signal every write touches.
    func databaseFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix("-changed") }.sorted()
    }

    @Test("status and accounts read a database in a read-only folder; writing commands say why they cannot")
    func readOnlyFolder() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let data = folder.file("ro")
        #expect(mkdir(data, 0o755) == 0)
        let path = data + "/switchboard.sqlite"
        do {  // closed again at the end of the block: no -wal or -shm file stays
            let database = try AppDatabase(testing: path)
            let session = SessionKey("tty-test")!
            let ids = try Sample.signIn([Sample.adaGitHub], into: database, session: session)
            _ = try database.switchAccount(to: ids[0], session: session)
        }
        #expect(try databaseFiles(in: data) == ["switchboard.sqlite"])
        // Root may write anywhere: the commands then run as nobody, who owns
        // neither the folder nor the file.
        let asOther = geteuid() == 0
        if asOther { chmod(folder.path, 0o755) }
        chmod(path, 0o644)
        chmod(data, 0o555)
        defer { chmod(data, 0o755) }
        let before = FileManager.default.contents(atPath: path)
        func command(_ arguments: String...) async throws -> ProcessResult {
            let full = arguments + ["--database", path]
            if asOther {
                return try await runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", switchboard] + full,
                                      environment: ["SWITCHBOARD_SESSION": "tty-test"], timeout: 20)
            }
            return try await run(full)
        }
        let accounts = try await command("accounts")
        #expect(accounts.status == 0, "\(accounts.stderr)")
        #expect(accounts.stdout.contains("Ada Lovelace"))
        let status = try await command("status", "--json")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"Ada Lovelace\""))
        let signOut = try await command("sign-out")
        #expect(signOut.status == 5)
        #expect(signOut.stderr.contains(data))
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(try databaseFiles(in: data) == ["switchboard.sqlite"])
    }

    @Test("an HTTP request leaves no folder named after the executable's folder in XDG_DATA_HOME")
    func noCookieFolder() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let data = folder.file("data")
        #expect(mkdir(data, 0o700) == 0)
        // Port 9 on loopback: nothing listens, so the request fails at once.
        let result = try await run(["demo", "approve", "ABCD-EFGH", "--server", "http://127.0.0.1:9"],
                             environment: ["XDG_DATA_HOME": data])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot reach"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == [])
    }
}
