import ChooserUI
import Services
import Foundation

/// Runs a station's reboot or power-off command for the operator menu: the
/// program found on `PATH` (or at its path), no shell, standard input from
/// /dev/null, its output kept in a private temporary file only to say why
/// it failed.
public enum StationCommand {
    /// The most of the command's output a failure message quotes.
    static let quotedOutput = 160

    /// Runs `command` to its end, off the caller's thread.
    public static func run(_ command: [String]) async -> CommandOutcome {
        await run(command, environment: ProcessInfo.processInfo.environment)
    }

    /// `run` with `environment`'s `PATH` for finding the program.
    static func run(_ command: [String], environment: [String: String]) async -> CommandOutcome {
        guard let name = command.first, !name.isEmpty else { return .failed("the command is empty") }
        guard let program = locate(name, path: environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin") else {
            return .failed("cannot run \(name): no such program")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-command-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let sink = try? FileHandle(forWritingTo: output)
        else { return .failed("cannot run \(name): no temporary file for its output") }
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(command.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = sink
        process.standardError = sink
        let started: Bool = await withCheckedContinuation { continuation in
            // Resumed once: by the end of the process, or by a failed start (which never ends).
            process.terminationHandler = { _ in continuation.resume(returning: true) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(returning: false)
            }
        }
        try? sink.close()
        guard started else { return .failed("cannot run \(name)") }
        let status = process.terminationStatus
        if process.terminationReason == .exit, status == 0 { return .succeeded }
        let why = process.terminationReason == .uncaughtSignal ? "\(name) was killed by signal \(status)" : "\(name) exited with status \(status)"
        let said = lastLine(of: (try? String(contentsOf: output, encoding: .utf8)) ?? "")
        return .failed(said.isEmpty ? why : "\(why): \(said)")
    }

    /// The program `name` names: itself when it has a slash, else the first
    /// executable of that name on `path`.
    static func locate(_ name: String, path: String) -> String? {
        func isProgram(_ file: String) -> Bool {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
                && FileManager.default.isExecutableFile(atPath: file)
        }
        if name.contains("/") { return isProgram(name) ? name : nil }
        return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: isProgram)
    }

    /// The last line with something on it, shortened for a toast (the toast
    /// makes it safe to show).
    static func lastLine(of output: String) -> String {
        let line = output.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) } ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count > quotedOutput ? String(trimmed.prefix(quotedOutput)) + "…" : trimmed
    }
}
