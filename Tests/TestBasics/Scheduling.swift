import Dispatch
import Synchronization
import Testing

// Where a suite's tests run. Swift Testing starts every test of the run at
// once, on the few threads of Swift's concurrency pool (two on a two-core
// machine), first come first served. A test that computes, or blocks in a
// library (SQLite, libpq), holds one of them until it is done; a test that
// follows real time through a live program or loop (a tmux session, the
// chooser's UI loop, an in-process provider) needs a thread for a moment at
// every step, and waited behind all of those, so the run ended seconds
// after its work. These two traits keep the two kinds apart. What a test
// does and checks is the same wherever it runs.

/// Runs a suite's tests on a few threads of this trait's own instead of
/// the concurrency pool's, for suites whose tests compute or block for long
/// stretches without awaiting: the system then shares the cores between
/// them and the pool, and the pool's threads stay free for short steps.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope only gathers its tests; each test case moves.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(Self.next()) { try await function() }
    }

    /// The executors, one thread each, taken in turn.
    private static let executors = (0..<3).map { QueueExecutor(label: "switchboard tests on own threads \($0)") }
    private static let turn = Atomic<Int>(0)

    private static func next() -> QueueExecutor {
        executors[turn.add(1, ordering: .relaxed).oldValue % executors.count]
    }
}

/// Runs each of a suite's tests at high priority, for tests that follow
/// real time step by step (end to end in tmux, the UI loops): their steps
/// go to the concurrency pool's high-priority threads, taken up as soon as
/// they are due rather than after the computing tests queued before them.
public struct Timely: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        // The test waits for the task, which runs it and ends before this returns.
        try await withoutActuallyEscaping(function) { function in
            try await Task(priority: .high) { try await function() }.value
        }
    }
}

extension Trait where Self == OwnThreads {
    /// Runs the suite's tests on threads of their own, not the concurrency pool's (see `OwnThreads`).
    public static var onOwnThreads: Self { OwnThreads() }
}

extension Trait where Self == Timely {
    /// Runs the suite's tests at high priority (see `Timely`).
    public static var timely: Self { Timely() }
}

/// Runs jobs on a serial dispatch queue: a thread at a time, not one of the pool's.
final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
