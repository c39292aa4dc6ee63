import Foundation
import Store
import SwitchboardCore

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
}

/// Runs `path` with `arguments` to completion, stdin closed. `environment`
/// entries are added to a clean environment holding only PATH and HOME.
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = childEnvironment(environment)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes to the end before waiting, so a chatty child cannot block.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdout = Data(), stderr = Data()
    DispatchQueue.global().async(group: group) { stdout = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderr = err.fileHandleForReading.readDataToEndOfFile() }
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
}

/// A clean environment for a child: PATH and HOME only, plus `extra`.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    env["HOME"] = ProcessInfo.processInfo.environment["HOME"]
    return env.merging(extra) { $1 }
}

/// A fresh folder under the system's temporary folder; removed by `remove()`.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "switchboard-tests-" + UUID().uuidString
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
