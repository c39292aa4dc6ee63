import Foundation
import PostgresServer
import TestBasics
import ProcessKit
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A program running in a detached tmux session on a private tmux server
/// (`tmux -L <unique>`), so end-to-end tests can type keys and read the
/// screen of a real terminal, in parallel, with no terminal of their own.
///
/// The program runs under a small `sh` wrapper that saves the terminal's
/// modes (`stty -g`) before and after it, and its exit status, then keeps
/// the pane open: `exitStatus(within:)` and `terminalLeftovers()` read those.
/// Use it through `withTmux`, which kills the server however the test ends.
///
/// Every tmux command runs on a queue of this session's own, never on the
/// tests' cooperative thread pool (two threads on a two-core machine),
/// and every wait checks the screen once more after its deadline, so a
/// test survives seconds when the pool is busy with other suites.
final class Tmux: Sendable {
    /// The session's (and window's) name.
    static let target = "e2e"

    /// Whether tmux is installed here (`.ci/run` installs it).
    static let isInstalled = executable("tmux") != nil

    let socket: String
    /// Holds the tmux configuration and the wrapper's files.
    let folder: TemporaryFolder
    private let tmuxPath: String
    private let queue = DispatchQueue(label: "switchboard-e2e.tmux")

    /// Starts `program` in a `width`×`height` terminal with
    /// `testChildVariables` and `environment` added to a clean one (PATH,
    /// HOME, LANG).
    init(_ program: String, arguments: [String] = [], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        guard let tmuxPath = Self.executable("tmux") else { throw TmuxError("tmux is not installed (.ci/run installs it)") }
        self.tmuxPath = tmuxPath
        socket = "switchboard-e2e-" + UUID().uuidString.prefix(13).lowercased()
        folder = TemporaryFolder()
        try """
            set -g status off
            set -g remain-on-exit on
            set -g history-limit 0
            set -s default-terminal \(Self.terminalType)
            set -s escape-time 0

            """.write(toFile: folder.file("tmux.conf"), atomically: true, encoding: .utf8)
        let script = """
            program=$1; folder=$2; shift 2
            stty -g > "$folder/tty-before"
            sh -c 'echo $$ > "$0"; exec "$@"' "$folder/pid" "$program" "$@"
            status=$?
            stty -g > "$folder/tty-after"
            echo "$status" > "$folder/exit-status"
            exec sleep 300
            """
        // `sh -c SCRIPT NAME PROGRAM FOLDER ARGS…`: the program gets ARGS only.
        let command = ["/bin/sh", "-c", script, "switchboard-e2e", program, folder.path] + arguments
        var options: [String] = []
        for (key, value) in testChildVariables.merging(environment, uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key }) {
            options += ["-e", "\(key)=\(value)"]
        }
        // The pane title is set in the same command list, before the pane's
        // output is read, so a test can tell whether the program changed it.
        let result = try runNow(["new-session", "-d", "-s", Self.target, "-x", "\(width)", "-y", "\(height)"] + options
                             + ["--"] + command + [";", "select-pane", "-t", Self.target, "-T", Self.initialTitle])
        guard result.status == 0 else {
            folder.remove()
            throw TmuxError("tmux new-session failed (\(result.status)): \(result.stderr)")
        }
        socketPath.withLock { $0 = try? runNow(["display-message", "-p", "#{socket_path}"]).stdout.trimmingCharacters(in: .newlines) }
    }

    /// The server's socket, removed with the server (tmux leaves it behind).
    private let socketPath = Mutex<String?>(nil)
    private let killed = Atomic<Bool>(false)

    /// The program's process id, once it has started.
    func programID(within timeout: Double = 10) async throws -> pid_t {
        guard let pid = try await poll(timeout: timeout, { pid_t(self.contents(of: "pid") ?? "") }) else {
            throw TmuxError("the program did not start within \(timeout) s")
        }
        return pid
    }

    /// The pane's title before the program runs.
    static let initialTitle = "switchboard-e2e"

    deinit { kill() }

    /// Stops the program (if it still runs), the server and everything in
    /// it, and removes the folder. Safe to call twice.
    func kill() {
        guard !killed.exchange(true, ordering: .relaxed) else { return }
        // The wrapper leads the pane's process group, with the program in it:
        // a program that ignores the hang-up must not outlive the test.
        if let pane = try? runNow(["display-message", "-p", "-t", Self.target, "#{pane_pid}"]).stdout,
           let pid = pid_t(pane.trimmingCharacters(in: .newlines)), pid > 1 {
            Glibc.kill(-pid, SIGKILL)
        }
        _ = try? runNow(["kill-server"])
        if let path = socketPath.withLock({ $0 }), path.hasSuffix("/" + socket) { unlink(path) }
        folder.remove()
    }

    // MARK: Talking to the terminal

    /// Runs one tmux command on this server.
    ///
    /// Not through Foundation's `Process`: the first command forks the tmux
    /// server, which would inherit the socket `Process` watches for its
    /// child's exit, so `waitUntilExit` would wait as long as the server lives.
    /// ProcessKit's `ChildProcess.run` passes the server nothing of ours
    /// (output through files, every other descriptor closed) and returns
    /// when the tmux client itself has exited.
    @discardableResult
    func run(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.runNow(arguments) }) }
        }
    }

    /// `run`, blocking the calling thread.
    private func runNow(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(tmuxPath, ["-u", "-L", socket, "-f", folder.file("tmux.conf")] + arguments,
                             environment: Self.tmuxEnvironment, timeout: 60)
    }

    /// tmux itself runs in a clean environment with a UTF-8 locale (so it
    /// reads and prints UTF-8); the program gets what `init` adds with `-e`.
    private static let tmuxEnvironment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/",
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
    ]

    /// Presses keys by tmux's names: "a", "Enter", "Escape", "Tab", "Down", "C-c".
    func press(_ keys: String...) async throws {
        let result = try await run(["send-keys", "-t", Self.target] + keys)
        if result.status != 0 { throw TmuxError("send-keys \(keys) failed: \(result.stderr)") }
    }

    /// The screen as text, one line per row (trailing blanks trimmed by tmux).
    func screen() async throws -> String {
        try await run(["capture-pane", "-p", "-t", Self.target]).stdout
    }

    /// The screen with its colours and attributes as escape sequences (`capture-pane -e`).
    func styledScreen() async throws -> String {
        try await run(["capture-pane", "-p", "-e", "-t", Self.target]).stdout
    }

    /// A tmux format, e.g. `#{pane_title}`, for the pane.
    func format(_ format: String) async throws -> String {
        try await run(["display-message", "-p", "-t", Self.target, format]).stdout.trimmingCharacters(in: .newlines)
    }

    /// Makes the terminal `width`×`height` (the program gets SIGWINCH).
    func resize(width: Int, height: Int) async throws {
        let result = try await run(["resize-window", "-t", Self.target, "-x", "\(width)", "-y", "\(height)"])
        if result.status != 0 { throw TmuxError("resize-window failed: \(result.stderr)") }
    }

    // MARK: Waiting

    /// Waits until the screen contains `text`; returns that screen. Polls
    /// every 50 ms (or `every` seconds: a long wait for what stays a while
    /// spawns fewer tmux clients); on timeout the error holds the last screen.
    @discardableResult
    func waitFor(text: String, timeout: Double = 10, every: Double = 0.05, fileID: String = #fileID, line: Int = #line) async throws -> String {
        try await waitUntil("the screen shows “\(text)”", timeout: timeout, every: every, fileID: fileID, line: line) { $0.contains(text) }
    }

    /// Waits until the screen no longer contains `text`.
    @discardableResult
    func waitFor(absenceOf text: String, timeout: Double = 10, fileID: String = #fileID, line: Int = #line) async throws -> String {
        try await waitUntil("“\(text)” is gone", timeout: timeout, fileID: fileID, line: line) { !$0.contains(text) }
    }

    /// Waits until `condition` holds for a settled screen (the same on two
    /// captures in a row, so never a frame tmux has only half received);
    /// returns that screen. Polls every 50 ms; on timeout the error holds
    /// the last screen.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: Double = 10, every: Double = 0.05, fileID: String = #fileID, line: Int = #line,
        _ condition: (String) throws -> Bool
    ) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var satisfied: String?
        var last = ""
        while true {
            // Taken before the capture: a capture made after a stall is still judged.
            let late = Date() >= deadline
            last = try await screen()
            if try condition(last) {
                if last == satisfied { return last }
                satisfied = last
                if late && Date() >= deadline.addingTimeInterval(5) { break }  // it never settles
                try await Task.sleep(for: .milliseconds(40))
                continue
            }
            satisfied = nil
            if late { break }
            try await Task.sleep(for: .milliseconds(Int(every * 1000)))
        }
        throw TmuxError("\(fileID):\(line): timed out after \(timeout) s waiting until \(what). Last screen:\n\(framed(last))")
    }

    /// Hands every capture of the screen, one each `every` seconds, to
    /// `observe` until it returns true; returns that screen. For a screen
    /// that changes faster than the tests' cooperative pool may come back
    /// (the tour's steps): the whole watch runs on this session's queue,
    /// so no capture waits for a pool thread, and `observe` judges every
    /// capture, settled or not. On timeout the error holds the last screen.
    @discardableResult
    func watch(
        _ what: String, timeout: Double, every: Double = 0.05, fileID: String = #fileID, line: Int = #line,
        _ observe: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let outcome: Result<String, any Error> = await withCheckedContinuation { continuation in
            queue.async {
                let deadline = Date().addingTimeInterval(timeout)
                var last = ""
                while true {
                    // Taken before the capture: a capture made after a stall is still judged.
                    let late = Date() >= deadline
                    do { last = try self.runNow(["capture-pane", "-p", "-t", Self.target]).stdout } catch {
                        return continuation.resume(returning: .failure(error))
                    }
                    if observe(last) { return continuation.resume(returning: .success(last)) }
                    if late { break }
                    usleep(UInt32(every * 1e6))
                }
                continuation.resume(returning: .failure(TmuxError(
                    "\(fileID):\(line): timed out after \(timeout) s watching for \(what). Last screen:\n\(self.framed(last))")))
            }
        }
        return try outcome.get()
    }

    /// The exit status of the program, once it has exited; an error after
    /// `timeout` seconds, with the last screen.
    func exitStatus(within timeout: Double = 10, fileID: String = #fileID, line: Int = #line) async throws -> Int32 {
        guard let status = try await poll(timeout: timeout, { Int32(self.contents(of: "exit-status") ?? "") }) else {
            let screen = (try? await screen()) ?? ""
            throw TmuxError("\(fileID):\(line): the program did not exit within \(timeout) s. Last screen:\n\(framed(screen))")
        }
        return status
    }

    /// Calls `probe` every 50 ms until it gives a value, and once more after
    /// the deadline; nil when it never did.
    private func poll<T>(timeout: Double, _ probe: () -> T?) async throws -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            if let value = probe() { return value }
            if late { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A file the wrapper wrote, trimmed; nil while it is not there.
    private func contents(of name: String) -> String? {
        (try? String(contentsOfFile: folder.file(name), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What is left of the program's hold on the terminal after it exited:
    /// an empty list when the terminal is as it found it (same tty modes,
    /// main screen, cursor shown, no mouse reporting).
    func terminalLeftovers() async throws -> [String] {
        var problems: [String] = []
        let before = try String(contentsOfFile: folder.file("tty-before"), encoding: .utf8)
        let after = try String(contentsOfFile: folder.file("tty-after"), encoding: .utf8)
        if before != after { problems.append("tty modes differ: before \(before.trimmed), after \(after.trimmed)") }
        let flags = try await format("#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag} #{mouse_all_flag}")
            .split(separator: " ").map(String.init)
        let expected = ["0", "1", "0", "0", "0", "0"]
        let names = ["alternate screen on", "cursor shown", "mouse any", "mouse button", "mouse standard", "mouse all"]
        for (index, name) in names.enumerated() where index < flags.count && flags[index] != expected[index] {
            problems.append("\(name) = \(flags[index]), expected \(expected[index])")
        }
        if flags.count != expected.count { problems.append("unexpected flags: \(flags)") }
        return problems
    }

    // MARK: Helpers

    /// The screen with a frame around it, so blank rows show in a failure message.
    func framed(_ screen: String) -> String {
        var lines = screen.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.map { "|" + $0 }.joined(separator: "\n")
    }

    /// tmux-256color where the terminfo database has it, else screen-256color.
    private static var terminalType: String {
        let folders = ["/usr/share/terminfo", "/lib/terminfo", "/etc/terminfo", "/usr/lib/terminfo"]
        let found = folders.contains { FileManager.default.fileExists(atPath: $0 + "/t/tmux-256color") }
        return found ? "tmux-256color" : "screen-256color"
    }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Runs `body` with a tmux session running `program`; the program and the
/// tmux server are killed afterwards however `body` ends (and by `deinit`
/// should a test be cancelled).
func withTmux<T>(
    _ program: String, arguments: [String] = [], environment: [String: String], width: Int = 100, height: Int = 30,
    _ body: (Tmux) async throws -> T
) async throws -> T {
    let tmux = try await offThePool { try Tmux(program, arguments: arguments, environment: environment, width: width, height: height) }
    do {
        let result = try await body(tmux)
        try await offThePool { tmux.kill() }
        return result
    } catch {
        try await offThePool { tmux.kill() }
        throw error
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
func freeLoopbackPort() throws -> UInt16 { UInt16(try ThrowawayCluster.freePort()) }

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
