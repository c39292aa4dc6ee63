import ProcessKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A station's hand-off alone, for ProcessKitTests: run on a terminal of its
// own (its controlling terminal, its group the foreground), it runs its
// arguments under `Supervisor` on that terminal and says which process group
// had the terminal's foreground before and after.

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

let command = Array(CommandLine.arguments.dropFirst())
say("probe group=\(getpgrp()) foreground=\(tcgetpgrp(STDIN_FILENO))")
let ending = await Supervisor(terminal: STDIN_FILENO, idleLimit: 600).run(command, environment: ["PATH": "/usr/bin:/bin"])
say("probe ended=\(ending) group=\(getpgrp()) foreground=\(tcgetpgrp(STDIN_FILENO))")
