import Dispatch

/// Something the bus can ask to drain a subscriber's pending events.
/// Implemented by the bus; executors only call `drain()`.
public protocol BusDrainer: AnyObject, Sendable {
    /// Delivers every pending event of one subscriber, in publish order.
    func drain()
}

/// Where a subscriber's handler runs. Must be serial (a serial queue, an
/// actor, the UI loop): the bus schedules a subscriber's next drain only
/// after the last one found nothing, and publish order holds only if drains
/// run one after another.
public protocol BusExecutor: Sendable {
    /// Arranges for `drainer.drain()` to run on this executor.
    func schedule(_ drainer: any BusDrainer)
}

/// Runs handlers on the publishing thread, before `publish` returns (like
/// `NotificationCenter` observers with no queue). Nested publishes from a
/// handler are delivered after the current event, keeping publish order.
public struct InlineExecutor: BusExecutor {
    public init() {}
    public func schedule(_ drainer: any BusDrainer) { drainer.drain() }
}

/// Runs handlers on a serial dispatch queue.
public struct DispatchQueueExecutor: BusExecutor {
    public let queue: DispatchQueue
    public init(_ queue: DispatchQueue) { self.queue = queue }
    public func schedule(_ drainer: any BusDrainer) { queue.async { drainer.drain() } }
}

/// Runs handlers on the main actor.
public struct MainActorExecutor: BusExecutor {
    public init() {}
    public func schedule(_ drainer: any BusDrainer) {
        Task { @MainActor in drainer.drain() }
    }
}

extension BusExecutor where Self == InlineExecutor {
    /// Deliver on the publishing thread.
    public static var inline: InlineExecutor { InlineExecutor() }
}

extension BusExecutor where Self == MainActorExecutor {
    /// Deliver on the main actor.
    public static var mainActor: MainActorExecutor { MainActorExecutor() }
}

extension BusExecutor where Self == DispatchQueueExecutor {
    /// Deliver on a serial dispatch queue.
    public static func queue(_ queue: DispatchQueue) -> DispatchQueueExecutor { DispatchQueueExecutor(queue) }
}
