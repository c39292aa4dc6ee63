import Synchronization

/// An event on the bus. Events are named as facts (`UserStatusChanged`).
public protocol BusEvent: Sendable {}

/// A subscriber's handler threw. The bus logs it and carries on.
public struct SubscriberFailure: Sendable, CustomStringConvertible {
    public let subscriber: String
    public let eventType: String
    public let error: any Error

    public var description: String {
        "bus: subscriber \(subscriber) failed on \(eventType): \(error)"
    }
}

/// An in-process broadcast bus.
///
/// - Publish order: each subscriber sees the events of its type in the order
///   they were published, on the executor it asked for.
/// - Bounded: each event type has one ring of `capacity` slots shared by its
///   subscribers. A subscriber that falls more than `capacity` events behind
///   skips the oldest and is told how many (`onLag`), so a slow subscriber
///   never makes memory grow (the policy of tokio's broadcast channel).
/// - Isolated: a handler that throws is reported to `onFailure`; delivery to
///   it and to everyone else goes on.
/// - Held no longer than needed: delivery stops when the `Subscription` is
///   cancelled or released.
public final class NotificationBus: Sendable {
    /// Events each type's ring holds at most.
    public let capacity: Int
    /// One channel per event type. A program has a handful of event types,
    /// so a linear scan beats hashing on every publish.
    @usableFromInline let channels = Mutex<[(type: ObjectIdentifier, channel: any AnyChannel)]>([])
    private let onFailure: @Sendable (SubscriberFailure) -> Void

    /// - Parameters:
    ///   - capacity: ring size per event type, rounded up to a power of two.
    ///   - onFailure: where failures of handlers are logged.
    public init(
        capacity: Int = 4096,
        onFailure: @escaping @Sendable (SubscriberFailure) -> Void = { _ in }
    ) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = 1 << (Int.bitWidth - (capacity - 1).leadingZeroBitCount)
        self.onFailure = onFailure
    }

    /// Publishes an event to every subscriber of its type.
    ///
    /// Inlinable, with the channel's publishing path, so that a caller in
    /// another module gets it specialised for its event type.
    @inlinable
    public func publish<E: BusEvent>(_ event: E) {
        existingChannel(for: E.self)?.publish(event)
    }

    /// Subscribes to events of type `E`, delivered on `executor`.
    ///
    /// - Parameters:
    ///   - name: how failures of this subscriber are reported.
    ///   - onLag: called on `executor` with the number of events skipped
    ///     when the subscriber fell more than `capacity` behind.
    /// - Returns: keep it as long as you want events; release or cancel it
    ///   to stop them.
    public func subscribe<E: BusEvent>(
        _ type: E.Type, name: String = "\(E.self)", on executor: some BusExecutor,
        onLag: (@Sendable (Int) -> Void)? = nil,
        _ handler: @escaping @Sendable (E) throws -> Void
    ) -> Subscription {
        let channel = channel(for: E.self, creating: true)!
        let subscriber = channel.subscribe(
            name: name, executor: executor is InlineExecutor ? nil : executor, onLag: onLag, handler: handler)
        return Subscription(subscriber)
    }

    /// Subscribes on the main actor; the handler runs isolated to it.
    @MainActor
    public func subscribe<E: BusEvent>(
        _ type: E.Type, name: String = "\(E.self)",
        onLag: (@MainActor @Sendable (Int) -> Void)? = nil,
        _ handler: @escaping @MainActor @Sendable (E) throws -> Void
    ) -> Subscription {
        var lagOnMain: (@Sendable (Int) -> Void)?
        if let onLag {
            lagOnMain = { missed in MainActor.assumeIsolated { onLag(missed) } }
        }
        let deliver: @Sendable (E) throws -> Void = { event in
            try MainActor.assumeIsolated { try handler(event) }
        }
        return subscribe(type, name: name, on: MainActorExecutor(), onLag: lagOnMain, deliver)
    }

    /// How many subscriptions are live, over all event types.
    public var subscriberCount: Int {
        channels.withLock { $0.reduce(0) { $0 + $1.channel.subscriberCount } }
    }

    /// How many events the rings hold now; never more than `capacity` per type.
    public var bufferedCount: Int {
        channels.withLock { $0.reduce(0) { $0 + $1.channel.bufferedCount } }
    }

    /// The channel of events of type `E`, if anyone ever subscribed to them.
    @inlinable
    func existingChannel<E: BusEvent>(for type: E.Type) -> Channel<E>? {
        let key = ObjectIdentifier(type)
        return channels.withLock { channels in
            for entry in channels where entry.type == key {
                return unsafeDowncast(entry.channel, to: Channel<E>.self)
            }
            return nil
        }
    }

    private func channel<E: BusEvent>(for type: E.Type, creating: Bool) -> Channel<E>? {
        let key = ObjectIdentifier(type)
        return channels.withLock { channels in
            for entry in channels where entry.type == key {
                return unsafeDowncast(entry.channel, to: Channel<E>.self)
            }
            guard creating else { return nil }
            let channel = Channel<E>(capacity: capacity, report: report)
            channels.append((key, channel))
            return channel
        }
    }

    private func report(_ error: any Error, subscriber: String, eventType: String) {
        onFailure(SubscriberFailure(subscriber: subscriber, eventType: eventType, error: error))
    }
}

/// Keeps a subscriber's events coming. Release or cancel it to stop them.
public final class Subscription: Sendable {
    private let subscriber: any SubscriberHandle

    fileprivate init(_ subscriber: any SubscriberHandle) { self.subscriber = subscriber }

    /// Stops delivery: called on the subscriber's own executor, no handler
    /// call starts after it returns; from another thread, at most the call
    /// already being started still runs.
    public func cancel() { subscriber.cancel() }

    /// Whether `cancel()` has been called (or the subscription released).
    public var isCancelled: Bool { subscriber.isCancelled }

    deinit { subscriber.cancel() }
}
