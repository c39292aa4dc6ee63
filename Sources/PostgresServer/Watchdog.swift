import Foundation
import ProcessKit

/// A server program (PostgreSQL, PgBouncer) started under a small shell
/// that holds the read end of a pipe whose write end only this process
/// has: when this process closes it (`stop`) or dies, however, the shell
/// stops the program, waits for it and removes its folder (unless told
/// `keep`). So no server outlives the process that started it.
enum Watchdog {
    /// Starts `command` with its output appended to `log` in `folder`;
    /// `stop` is the shell's code that stops it (`$launched` is its pid,
    /// `$folder` the folder). Returns the pipe's write end and the shell's pid.
    static func start(_ command: [String], folder: String, log: String, stop: String) throws -> (Int32, pid_t) {
        let script = """
            folder=$1; shift
            "$@" >>"$folder/\(log)" 2>&1 </dev/null &
            launched=$!
            read answer
            \(stop)
            wait "$launched"
            [ "$answer" = keep ] || rm -rf "$folder"
            """
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw ClusterError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        // Only this process holds the write end: no child it starts inherits it.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let watchdog: pid_t
        do {
            (watchdog, _) = try spawnChild(
                "/bin/sh", ["-c", script, "switchboard-watchdog", folder] + command,
                environment: ChildProcess.environment(keeping: ["PATH"], adding: [:]),
                descriptors: [.same(ends[0]), .open("/dev/null", O_WRONLY), .open("/dev/null", O_WRONLY)], group: .newSession)
        } catch {
            close(ends[0])
            close(ends[1])
            throw ClusterError("cannot start \(command.last ?? "the server"): \(error)")
        }
        close(ends[0])
        return (ends[1], watchdog)
    }

    /// Tells the watchdog to stop its program (keeping the folder when
    /// `keepFolder`), and waits for it.
    static func stop(_ descriptor: Int32, _ watchdog: pid_t, keepFolder: Bool) {
        if keepFolder { _ = "keep\n".withCString { write(descriptor, $0, 5) } }
        close(descriptor)
        reap(watchdog)
    }
}
