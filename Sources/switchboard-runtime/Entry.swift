import CNcurses
import CursesBackend
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif

/// The terminal the launcher handed over, showing the chooser's first
/// frame; nil when it drew none.
@MainActor var launcherTerminal: CursesTerminal?

/// Where the launcher enters this image after loading it: runs the command
/// line (`CommandLine.arguments`, the process's own) and ends the process.
/// `handoff` is the terminal with the chooser's first frame, or nil; it is
/// taken over before anything else, so that its restore is armed again
/// within the same call.
@_cdecl("switchboard_runtime_enter")
public func switchboardRuntimeMain(_ handoff: UnsafePointer<sb_handoff>?) {
    // Called on the main thread, as the launcher's main code.
    nonisolated(unsafe) let handed = handoff?.pointee
    MainActor.assumeIsolated {
        if let handed { launcherTerminal = try? CursesTerminal(adopting: handed) }
    }
    Task { @MainActor in
        await Switchboard.main()
        exit(0)
    }
    dispatchMain()
}
