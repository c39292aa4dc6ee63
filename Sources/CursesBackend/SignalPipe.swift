import Foundation

/// Signals turned into bytes on a pipe, so a read source can wake the
/// program for them: the self-pipe trick. Replaces curses' own SIGWINCH
/// handler, which only sets a flag that nothing would notice while idle.
enum SignalPipe {
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static let signals: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT]

    static func install() {
        guard readEnd < 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                let saved = errno
                _ = write(SignalPipe.writeEnd, &byte, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
