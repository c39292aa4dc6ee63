import Dispatch

/// Seconds on a monotonic clock (`DispatchTime`): the times
/// `TerminalProcess` and `PseudoTerminal` report, and the benchmark's `now()`.
public enum Monotonic {
    /// Seconds since an arbitrary fixed point; only differences mean anything.
    public static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
