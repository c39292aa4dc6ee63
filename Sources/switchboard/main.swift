// `switchboard`: the launcher. With no arguments, on a terminal, it draws
// the chooser's first frame from a quick read of the store — without
// loading Foundation, GRDB or the HTTP stack — then loads the runtime
// into this process and hands it the terminal. Every other command line
// goes straight to the runtime. The runtime is the file beside this one:
// `switchboard-runtime-tool`, as SwiftPM builds it for the launcher (see
// Package.swift), else `switchboard-runtime`.

import ChooserLaunch
import ChooserUI
import CNcurses
import CursesBackend
import SwitchboardCore
#if canImport(Glibc)
    import Glibc
#endif

var handoff: sb_handoff?
var rows: Int32 = 0, columns: Int32 = 0
if CommandLine.arguments.count == 1, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
    sb_get_winsize(STDOUT_FILENO, &rows, &columns) == 0,
    let opening = ChooserOpening.prepare(
        environment: RunningProcess.environment(), terminalName: SessionKey.terminalName(), rows: Int(rows)),
    let terminal = try? CursesTerminal(input: STDIN_FILENO, output: STDOUT_FILENO)
{
    // Without a snapshot the screen stays blank, as curses knows it, and the runtime draws.
    if let state = opening.state(size: terminal.size, colors: terminal.colors, now: Moment.now()) {
        terminal.draw(Screen.draw(state))
    }
    handoff = terminal.handOff(release: { CursesTerminal.releaseHandedOff() })
}

// Never a relative path: that would load whatever library the working folder holds.
let folder = RunningProcess.executableFolder ?? "(unknown: /proc/self/exe cannot be read)"
let runtimePath = ["switchboard-runtime-tool", "switchboard-runtime"].map { folder + "/" + $0 }.first { access($0, R_OK) == 0 }
    ?? folder + "/switchboard-runtime-tool"
guard folder.hasPrefix("/"), let image = dlopen(runtimePath, RTLD_NOW | RTLD_LOCAL),
    let entry = dlsym(image, "switchboard_runtime_enter")
else {
    let reason = folder.hasPrefix("/") ? dlerror().map { String(cString: $0) } ?? "no entry point" : "cannot find \(runtimePath)"
    if handoff != nil { CursesTerminal.emergencyRestore() }
    let message = "switchboard: cannot load the runtime: \(reason)\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(70)
}
let enter = unsafeBitCast(entry, to: (@convention(c) (UnsafePointer<sb_handoff>?) -> Void).self)
if var handoff { enter(&handoff) } else { enter(nil) }
exit(0)  // not reached: the runtime ends the process
