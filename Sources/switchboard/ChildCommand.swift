import Foundation
import ProcessKit
import SwitchboardCore

/// What `exec` does once the environment is built: runs `arguments` in
/// this process's place (ProcessKit's `ChildProcess.runInPlace`) and
/// returns the status a shell would report; 127 when the program cannot
/// be found and 126 when it cannot be run, said on `io`'s standard error.
/// The child's standard input, output and error are this process's.
func runChild(_ arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
    do throws(ProcessError) {
        return try ChildProcess.runInPlace(arguments, environment: environment)
    } catch {
        io.stderr.write("switchboard: \(cannotRun(arguments, error))\n")
        return error.commandStatus
    }
}

/// Why `arguments` could not be started, as the program says it.
func cannotRun(_ arguments: [String], _ error: ProcessError) -> String {
    guard error.code != 0 else { return error.description }
    return "cannot run \((arguments.first ?? "").displaySafe): \(String(cString: strerror(error.code)))"
}
