import ArgumentParser
import ConfigFile
import Configuration
import Foundation
import Synchronization
import Glibc
import PINHash
import Store
import SwitchboardCore

/// Where a command's text goes: standard output or standard error.
protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Writes `bytes`, UTF-8 text; a writer that keeps text takes it as a string.
    func write(utf8 bytes: [UInt8])
}

extension TextOutput {
    func write(utf8 bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Where a command's lines of input come from: standard input.
protocol LineInput: Sendable {
    /// The next line's bytes, without its `\n`; nil when the input ended
    /// before any byte of it. Bytes past `limit` are read but not kept
    /// (`truncated` then says so).
    func readLineBytes(limit: Int) -> (bytes: [UInt8], truncated: Bool)?
}

extension LineInput {
    /// The next line as text, without its `\n`; nil when the input ended
    /// before any byte of it. Bytes past `limit` are read but not kept.
    func readLine(limit: Int) -> String? {
        readLineBytes(limit: limit).map { String(decoding: $0.bytes, as: UTF8.self) }
    }
}

/// What a command meets outside itself: its environment, standard input,
/// output and error, whether they are terminals, and its controlling
/// terminal. Commands take it in `run(io:)`; the program hands them
/// `CommandIO.process()`, its own, and tests hand them one of their own
/// making, so a command runs in the test's process.
///
/// The chooser, the kiosk, `status --watch` and the child of `exec` still
/// use the process's descriptors themselves: they need a real terminal,
/// signals or descriptors to hand on. `demo serve` waits for Ctrl-C only
/// with the process's own (`takesSignals`); in a test's, until its task is
/// cancelled.
struct CommandIO: Sendable {
    var environment: [String: String]
    var stdout: any TextOutput
    var stderr: any TextOutput
    var stdin: any LineInput
    var stdinIsTerminal: Bool
    var stdoutIsTerminal: Bool
    /// The terminal sessions are resolved against (nil: none), asked only
    /// when a command needs it: the controlling terminal, or the one the
    /// chooser draws on.
    var terminal: @Sendable () -> TerminalIdentity?
    /// Whether a command may take the process's signals (sign-in turns
    /// Ctrl-C into a cancel): the process's own may; a test's, which
    /// shares its process with other tests, does not.
    var takesSignals: Bool
    /// The PBKDF2 iterations the store hashes new PINs with
    /// (`AppDatabase.pinRounds`): the standard figure in the program; tests
    /// that run commands in their own process give a small one.
    var pinRounds = StoredPIN.defaultRounds
    /// The folder the command runs in, where directory rules are looked
    /// for: the process's own (`getcwd`); a test's names one, `/` unless
    /// its environment's `PWD` says otherwise.
    var workingDirectory = "/"
    /// config.toml as this invocation read it: read once, whichever of its
    /// sections the command and its store ask for.
    let readings = ConfigurationReadings()

    /// This process's own: its environment, descriptors 0, 1 and 2, and
    /// its controlling terminal.
    static func process() -> CommandIO {
        let environment = ProcessInfo.processInfo.environment
        var io = CommandIO(
            environment: environment,
            stdout: DescriptorOutput(descriptor: STDOUT_FILENO), stderr: DescriptorOutput(descriptor: STDERR_FILENO),
            stdin: DescriptorInput(descriptor: STDIN_FILENO),
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            terminal: { TerminalIdentity.controlling() }, takesSignals: true)
        io.pinRounds = processPINRounds(environment)
        io.workingDirectory = FileManager.default.currentDirectoryPath
        return io
    }

    /// The PIN work factor of this process: `StoredPIN.defaultRounds`. Only
    /// a debug build, which is what `swift test` builds and runs as the
    /// tests' child processes, takes `SWITCHBOARD_TEST_PIN_ROUNDS` (1,000
    /// or more) instead, so that a PIN the tests set through the program
    /// costs what it costs in their own process. A release build, the one
    /// README's Install section makes, has no such switch: nothing in its
    /// environment lowers the work factor.
    static func processPINRounds(_ environment: [String: String]) -> Int {
        #if DEBUG
        if let rounds = environment["SWITCHBOARD_TEST_PIN_ROUNDS"].flatMap({ Int($0) }), (1_000..<StoredPIN.defaultRounds).contains(rounds) {
            return rounds
        }
        #endif
        return StoredPIN.defaultRounds
    }

    /// Writes `text` and a newline (or `terminator`) to standard output.
    func print(_ text: String, terminator: String = "\n") {
        stdout.write(text + terminator)
    }

    /// Prints a value as one line of JSON with sorted keys (`jsonLine`).
    func printJSON(_ value: some Encodable) {
        print(jsonLine(value))
    }

    /// Says `switchboard: message` on standard error, each line of the
    /// message made `displaySafe` (messages quote what providers and files
    /// said), and returns the exit that ends the command with `status`.
    func fail(_ message: String, _ status: ExitStatus) -> ExitCode {
        let safe = message.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).displaySafe }.joined(separator: "\n")
        stderr.write("switchboard: \(safe)\n")
        return ExitCode(status.rawValue)
    }

    /// Runs a command body, turning store errors into their message and
    /// status; any other error (a thrown exit) passes as it is.
    func reportingErrors(_ body: () throws -> Void) throws {
        do { try body() } catch let error as StoreError { throw fail(error.description, ExitStatus(error)) }
    }
}

/// A command that does its work with the `CommandIO` it is given; its
/// `run()` hands it the process's own.
protocol IOCommand: AsyncParsableCommand {
    func run(io: CommandIO) async throws
}

extension IOCommand {
    func run() async throws { try await run(io: .process()) }
}

/// Writes to a file descriptor at once, all of it (no buffering, so a
/// line is out before a child runs or the process exits).
struct DescriptorOutput: TextOutput {
    let descriptor: Int32

    func write(_ text: String) { write(utf8: Array(text.utf8)) }

    func write(utf8 text: [UInt8]) {
        var bytes = text[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// Reads a file descriptor a byte at a time, so nothing after a line is
/// taken from a command that inherits it (`exec --pin-stdin`).
struct DescriptorInput: LineInput {
    let descriptor: Int32

    func readLineBytes(limit: Int) -> (bytes: [UInt8], truncated: Bool)? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var sawAny = false, truncated = false
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { break }
            sawAny = true
            if byte == UInt8(ascii: "\n") { break }
            if bytes.count < limit { bytes.append(byte) } else { truncated = true }
        }
        return sawAny ? (bytes, truncated) : nil
    }
}

/// The configuration files one invocation read, each read once: the
/// command, the store's choice and the station's name all take theirs from
/// here. Its warnings are said once, by the first that asks to say them.
final class ConfigurationReadings: Sendable {
    private let read = Mutex<[String: Result<SwitchboardConfiguration, ConfigError>]>([:])
    private let warned = Mutex<Set<String>>([])

    /// The file at `path`, read the first time it is asked for.
    func configuration(at path: String) throws(ConfigError) -> SwitchboardConfiguration {
        let result = read.withLock { read in
            if let known = read[path] { return known }
            let loaded = Result { () throws(ConfigError) in try SwitchboardConfiguration.load(path: path) }
            read[path] = loaded
            return loaded
        }
        return try result.get()
    }

    /// Whether the warnings of `path` are still to be said (true once).
    func shouldWarn(_ path: String) -> Bool {
        warned.withLock { $0.insert(path).inserted }
    }
}
