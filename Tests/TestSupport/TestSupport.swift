import Foundation
import ProcessKit
import Store
import SwitchboardCore
import TestBasics

/// The path of an executable this package built, beside the test bundle.
public func builtProduct(_ name: String) -> String {
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
}

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `path` with `arguments` to completion, stdin from `input` (else /dev/null), through
/// ProcessKit's spawner (output through files, nothing else of ours
/// inherited). `environment` entries are added to a clean environment
/// holding only PATH and HOME. A child still running after `timeout`
/// seconds is killed (its status is then 137), so a test cannot hang.
/// The wait is on a thread of its own (`offThePool`), never on one of the
/// few threads every test's async code shares.
public func runProcess(
    _ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 300, input: String? = nil
) async throws -> ProcessResult {
    try await offThePool { try runProcessBlocking(path, arguments, environment: environment, timeout: timeout, input: input) }
}

/// `runProcess`, blocking the calling thread: for code that is on a thread of its own already.
public func runProcessBlocking(
    _ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 300, input: String? = nil
) throws -> ProcessResult {
    let result = try ChildProcess.run(path, arguments, environment: childEnvironment(environment), timeout: timeout, input: input)
    let stderr = result.timedOut ? result.stderr + "\n(killed after \(timeout) s)\n" : result.stderr
    return ProcessResult(status: result.status, stdout: result.stdout, stderr: stderr)
}

/// A clean environment for a child: PATH and HOME only, and
/// `testChildVariables`, plus `extra`.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ChildProcess.environment(keeping: ["HOME"], adding: testChildVariables)
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return environment.merging(extra) { $1 }
}

/// What every child process of the tests (and every program they run in
/// tmux) gets in its environment: the PIN work factor `testPINRounds`,
/// which only a debug build of `switchboard` takes
/// (`SWITCHBOARD_TEST_PIN_ROUNDS`; an installed, release build ignores it).
public let testChildVariables = ["SWITCHBOARD_TEST_PIN_ROUNDS": "\(testPINRounds)"]

/// Where tests make their temporary folders (with a trailing `/`): the
/// memory file system `/dev/shm` when the machine has one with a gigabyte
/// free and `TMPDIR` names no other place; else the system's temporary
/// folder. A test run makes and removes tens of thousands of files (stores
/// and their journals, PostgreSQL's clusters and the tables of each
/// store's schema, a browser's profile); on this machine kind's disk,
/// finding a free inode among so many just removed cost the kernel more
/// than the rest of what the files were for (the whole run: 36 s with 18 s
/// of system time there, 33 s with 12 s here). Files behave the same here
/// (locks, inotify, renames, permissions); only `fsync` has no disk to wait for.
public let scratchFolder: String = {
    let system = NSTemporaryDirectory()
    guard ProcessInfo.processInfo.environment["TMPDIR"] == nil else { return system }
    let memory = "/dev/shm"
    let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
    let isMemory = mounts.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ")
        return fields.count > 2 && fields[1] == memory && fields[2] == "tmpfs"
    }
    var space = statvfs()
    guard isMemory, access(memory, W_OK | X_OK) == 0, statvfs(memory, &space) == 0,
          UInt64(space.f_bavail) * UInt64(space.f_frsize) >= 1 << 30
    else { return system }
    return memory + "/"
}()

/// A fresh folder under `scratchFolder`; removed by `remove()`.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init() {
        path = scratchFolder + "switchboard-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// People the tests sign in.
public enum Sample {
    public static let adaGitHub = LinkedIdentity(
        identity: Identity(provider: "github", subject: "583231"), displayName: "Ada Lovelace",
        email: "ada@example.org", emailVerified: true)
    public static let adaGoogle = LinkedIdentity(
        identity: Identity(provider: "google", subject: "107691503500061507151"), displayName: "Ada L.",
        email: "ada@example.org", emailVerified: true)
    public static let graceGitHub = LinkedIdentity(
        identity: Identity(provider: "github", subject: "1024"), displayName: "Grace Hopper", email: nil)
    public static let graceMicrosoft = LinkedIdentity(
        identity: Identity(provider: "microsoft", subject: "oid-7:tid-1"), displayName: "Grace Hopper",
        email: "grace@navy.example", emailVerified: true, state: .expired)

    /// Signs a new account in for each identity; returns their ids.
    @discardableResult
    public static func signIn(_ identities: [LinkedIdentity], into database: AppDatabase, session: SessionKey) throws -> [AccountID] {
        try identities.map { identity in
            guard case .completed(let account, _, _, _, _) = try database.signIn(identity, mode: .signIn, session: session) else {
                throw StoreError.accountNotFound(identity.identity.description)
            }
            return account.id
        }
    }
}

/// The PBKDF2 iterations PINs get in tests: a full-strength hash costs a
/// quarter of a second in a debug build, and the tests check hundreds.
public let testPINRounds = 1_000

/// How long a shared store's server is given to answer a test's own
/// setting up and checking: the most `[store] timeout` allows, since the
/// whole suite runs at once on a machine of two cores, where the standard
/// 2 s has been missed; the program's own deadline is tested where it is set.
public let testStoreDeadline = Double(StoreDeadline.allowed.upperBound)

extension AppDatabase {
    /// The store at `path` as tests open it: as the program would, but with
    /// PINs hashed with `testPINRounds`.
    public convenience init(testing path: String, access: Access = .readWrite) throws(StoreError) {
        try self.init(path: path, access: access, pinRounds: testPINRounds)
    }

    /// The store at `location` as tests open it, PINs hashed with
    /// `testPINRounds`; a server has `testStoreDeadline` to answer (a test
    /// of the deadline itself names its own).
    public convenience init(testing location: StoreLocation, access: Access = .readWrite) throws(StoreError) {
        try self.init(location, access: access, pinRounds: testPINRounds, deadline: testStoreDeadline)
    }
}
