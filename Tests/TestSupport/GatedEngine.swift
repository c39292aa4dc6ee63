import Dispatch
import Foundation
@testable import Store
import SwitchboardCore

/// The controls of a store double (`AppDatabase.gated`): it can stop
/// answering, as a paused server does (every call waits at a gate until
/// the test opens it), or refuse every write, as a server that went away
/// between a read and a write does.
public final class StoreGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = true
    private var writeFailure: StoreError?

    /// Makes every call from now on wait (`true`), or lets them all go.
    public func close(_ closed: Bool) {
        condition.lock()
        open = !closed
        condition.broadcast()
        condition.unlock()
    }

    /// Makes every write from now on fail with `failure` (nil: writes work again).
    public func failWrites(_ failure: StoreError?) {
        condition.lock()
        writeFailure = failure
        condition.unlock()
    }

    /// Waits while closed; throws the write failure set, for a write.
    func pass(writing: Bool = false) throws {
        condition.lock()
        defer { condition.unlock() }
        while !open { condition.wait() }
        if writing, let writeFailure { throw writeFailure }
    }
}

extension AppDatabase {
    /// The store in the SQLite file at `path`, through a double the test controls with the gate.
    public static func gated(path: String, pinRounds: Int) throws -> (AppDatabase, StoreGate) {
        let gate = StoreGate()
        return (AppDatabase(engine: GatedEngine(try SQLiteEngine(path: path, access: .readWrite), gate: gate), pinRounds: pinRounds), gate)
    }
}

/// The engine under `AppDatabase.gated`: every call passes its gate first.
final class GatedEngine: StoreEngine, @unchecked Sendable {
    private let inner: any StoreEngine
    private let gate: StoreGate

    init(_ inner: any StoreEngine, gate: StoreGate) {
        self.inner = inner
        self.gate = gate
    }

    private func pass(writing: Bool = false) throws { try gate.pass(writing: writing) }

    var location: String { inner.location }
    var isReadOnly: Bool { inner.isReadOnly }
    var isShared: Bool { inner.isShared }
    var migratedNow: [String] { inner.migratedNow }
    var readerMarksPath: String? { inner.readerMarksPath }
    func write<T>(_ body: (any SQLConnection) throws -> T, signal: (any SQLConnection) throws -> String?) throws -> T {
        try pass(writing: true)
        return try inner.write(body, signal: signal)
    }
    func writeUnannounced<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pass(writing: true)
        return try inner.writeUnannounced(body)
    }
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pass()
        return try inner.read(body)
    }
    func storeError(_ error: any Error) -> StoreError { inner.storeError(error) }
    func lockRefreshes(of identity: Identity, timeout: Double) async throws(StoreError) -> RefreshLock {
        try await inner.lockRefreshes(of: identity, timeout: timeout)
    }
    func follower() throws(StoreError) -> any ChangeFollower { try inner.follower() }
    func watch(on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) -> any ChangeWatch {
        try inner.watch(on: queue, events)
    }
}
