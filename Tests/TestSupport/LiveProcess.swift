import Foundation

/// A child process that keeps running while the test talks to it: its
/// output is collected line by line as it comes.
public final class LiveProcess: Sendable {
    private let process: Process
    private let stdoutLines = Recorder<String>()
    private let stderrText = Recorder<String>()
    private let done = DispatchGroup()

    public init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = childEnvironment(environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let lines = stdoutLines
        done.enter()
        Thread.detachNewThread { [done] in
            var pending = Data()
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    lines.add(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { lines.add(String(decoding: pending, as: UTF8.self)) }
            done.leave()
        }
        done.enter()
        Thread.detachNewThread { [done, stderrText] in
            let data = err.fileHandleForReading.readDataToEndOfFile()
            stderrText.add(String(decoding: data, as: UTF8.self))
            done.leave()
        }
    }

    /// Every line printed so far.
    public var lines: [String] { stdoutLines.all }

    /// What it printed on standard error (complete once it has exited).
    public var stderr: String { stderrText.all.joined() }

    /// Waits for a line containing `text`; nil after `seconds`.
    public func line(containing text: String, within seconds: Double = 20) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lines.first(where: { $0.contains(text) }) { return line }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Sends Ctrl-C.
    public func interrupt() { process.interrupt() }

    public func terminate() { if process.isRunning { process.terminate() } }

    /// Waits for the exit; returns the status (nil after `seconds`, then kills it).
    public func exitStatus(within seconds: Double = 30) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        done.wait()
        return process.terminationStatus
    }
}
