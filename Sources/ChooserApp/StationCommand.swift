import ChooserUI
import Foundation
import ProcessKit
import Services

/// Runs a station's reboot or power-off command for the operator menu: the
/// program found on `PATH` (or at its path), no shell, standard input from
/// /dev/null, in a process group of its own, its output (standard output
/// and error as one) kept in an anonymous file only to say why it failed.
public enum StationCommand {
    /// The most of the command's output a failure message quotes.
    static let quotedOutput = 160

    /// Runs `command` to its end, waited for on a thread of its own.
    public static func run(_ command: [String]) async -> CommandOutcome {
        await run(command, environment: ProcessInfo.processInfo.environment)
    }

    /// `run` with exactly `environment` (whose `PATH` finds the program).
    static func run(_ command: [String], environment: [String: String]) async -> CommandOutcome {
        guard let name = command.first, !name.isEmpty else { return .failed("the command is empty") }
        guard let program = locate(name, path: environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin") else {
            return .failed("cannot run \(name): no such program")
        }
        let ended: ChildProcess.Output
        do {
            ended = try await ChildProcess.outcome(
                of: program, Array(command.dropFirst()), environment: environment, oneStream: true, group: .newGroup(foreground: nil))
        } catch {
            return .failed("cannot run \(name)")
        }
        if ended.signal == nil, ended.status == 0 { return .succeeded }
        let why = ended.signal.map { "\(name) was killed by signal \($0)" } ?? "\(name) exited with status \(ended.status)"
        let said = lastLine(of: String(decoding: ended.stdout, as: UTF8.self))
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
