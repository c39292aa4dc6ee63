import Synchronization

/// What the bus needs of a channel without knowing its event type.
@usableFromInline
protocol AnyChannel: AnyObject, Sendable {
    var subscriberCount: Int { get }
    var bufferedCount: Int { get }
}

/// What a `Subscription` needs of its subscriber.
protocol SubscriberHandle: AnyObject, Sendable {
    func cancel()
    var isCancelled: Bool { get }
}

/// One subscriber of events of type `E`. Inline subscribers (`executor` nil)
/// are delivered to by whichever publisher holds the channel's inline drain
/// token; the others each keep a cursor and drain in batches on their executor.
@usableFromInline
final class Subscriber<E: BusEvent>: BusDrainer, SubscriberHandle, @unchecked Sendable {
    // All `let`s but `cancelled`, which is atomic.
    @usableFromInline weak var channel: Channel<E>?
    @usableFromInline let name: String
    @usableFromInline let executor: (any BusExecutor)?
    @usableFromInline let onLag: (@Sendable (Int) -> Void)?
    @usableFromInline let handler: @Sendable (E) throws -> Void
    /// Sequence number of the first event this subscriber gets.
    @usableFromInline let since: Int
    @usableFromInline let cancelled = Atomic<Bool>(false)

    init(
        channel: Channel<E>, since: Int, name: String, executor: (any BusExecutor)?,
        onLag: (@Sendable (Int) -> Void)?, handler: @escaping @Sendable (E) throws -> Void
    ) {
        self.channel = channel
        self.since = since
        self.name = name
        self.executor = executor
        self.onLag = onLag
        self.handler = handler
    }

    @inlinable var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        if cancelled.exchange(true, ordering: .acquiringAndReleasing) { return }
        channel?.remove(self)
    }

    /// Calls the handler, reporting a failure instead of passing it on.
    @inlinable @inline(__always)
    func deliver(_ event: E) {
        do { try handler(event) } catch { channel?.report(error, subscriber: name, eventType: "\(E.self)") }
    }

    @usableFromInline
    func drain() {
        guard let channel else { return }
        var batch: [E] = []
        while !isCancelled {
            let result = channel.nextBatch(for: self, into: &batch)
            if result.missed > 0 { onLag?(result.missed) }
            for event in batch {
                if isCancelled { break }
                deliver(event)
            }
            batch.removeAll(keepingCapacity: true)
            if result.idle { return }
        }
    }
}

/// The ring of one event type and everyone subscribed to it.
@usableFromInline
final class Channel<E: BusEvent>: AnyChannel, @unchecked Sendable {
    @usableFromInline let state: Mutex<ChannelState<E>>
    private let reportFailure: @Sendable (any Error, String, String) -> Void
    /// Reused by the holder of the inline drain token only.
    @usableFromInline var inlineBatch: [E] = []

    init(capacity: Int, report: @escaping @Sendable (any Error, String, String) -> Void) {
        state = Mutex(ChannelState(capacity: capacity))
        reportFailure = report
    }

    @usableFromInline var subscriberCount: Int { state.withLock { $0.inline.count + $0.cursors.count } }
    @usableFromInline var bufferedCount: Int { state.withLock { min($0.head, $0.ring.count) } }

    @usableFromInline
    func report(_ error: any Error, subscriber: String, eventType: String) {
        reportFailure(error, subscriber, eventType)
    }

    /// Adds a subscriber that gets every event published from now on.
    func subscribe(
        name: String, executor: (any BusExecutor)?, onLag: (@Sendable (Int) -> Void)?,
        handler: @escaping @Sendable (E) throws -> Void
    ) -> Subscriber<E> {
        state.withLock { state in
            let subscriber = Subscriber(
                channel: self, since: state.head, name: name, executor: executor, onLag: onLag,
                handler: handler)
            state.add(subscriber)
            return subscriber
        }
    }
    func remove(_ subscriber: Subscriber<E>) { state.withLock { $0.remove(subscriber) } }

    @inlinable
    func publish(_ event: E) {
        var wake: [Subscriber<E>] = []
        var inline: InlineSnapshot<E> = .empty
        let seq: Int? = state.withLock { state in
            state.append(event)
            if !state.idle.isEmpty { swap(&wake, &state.idle) }
            guard !state.inline.isEmpty, !state.inlineDraining else { return nil }
            // Nobody was draining, so this event is the only one pending.
            state.inlineDraining = true
            state.inlineNext = state.head
            inline = state.inlineSnapshot
            return state.head - 1
        }
        for subscriber in wake { subscriber.executor!.schedule(subscriber) }
        guard let seq else { return }
        inline.deliver(event, seq: seq)
        drainInline()
    }

    /// Delivers, holding the inline drain token, whatever handlers published
    /// meanwhile; gives the token back once caught up.
    @inlinable
    func drainInline() {
        while true {
            var inline: InlineSnapshot<E> = .empty
            // Whether the batch is empty is read under the lock: once it is,
            // the token is given back and the next holder fills the batch.
            let (first, missed, done) = state.withLock { state in
                let (first, missed) = state.nextInlineBatch(into: &inlineBatch, subscribers: &inline)
                return (first, missed, inlineBatch.isEmpty)
            }
            if done { return }
            if missed > 0 { for subscriber in inline.strong { subscriber.onLag?(missed) } }
            for (offset, event) in inlineBatch.enumerated() {
                inline.deliver(event, seq: first + offset)
            }
            inlineBatch.removeAll(keepingCapacity: true)
        }
    }

    func nextBatch(for subscriber: Subscriber<E>, into batch: inout [E]) -> BatchResult {
        state.withLock { $0.nextBatch(for: subscriber, into: &batch) }
    }
}

/// The inline subscribers at one moment. `strong` keeps them alive while
/// `unretained` lets delivery skip reference counting per call. Sendable:
/// the subscribers are, and `unretained` points at the ones `strong` holds.
@usableFromInline
struct InlineSnapshot<E: BusEvent>: @unchecked Sendable {
    @inlinable static var empty: InlineSnapshot { InlineSnapshot(strong: []) }

    @usableFromInline let strong: [Subscriber<E>]
    @usableFromInline let unretained: [Unmanaged<Subscriber<E>>]

    @inlinable
    init(strong: [Subscriber<E>]) {
        self.strong = strong
        self.unretained = strong.map { Unmanaged.passUnretained($0) }
    }

    /// Delivers event number `seq` to each subscriber that was there for it.
    @inlinable @inline(__always)
    func deliver(_ event: E, seq: Int) {
        withExtendedLifetime(strong) {
            for subscriber in unretained {
                subscriber._withUnsafeGuaranteedRef { subscriber in
                    if subscriber.since <= seq && !subscriber.isCancelled { subscriber.deliver(event) }
                }
            }
        }
    }
}

/// What a drain got from the ring.
struct BatchResult {
    /// Events skipped because the subscriber fell more than `capacity` behind.
    var missed = 0
    /// Nothing was pending: the subscriber is idle again and must stop draining.
    var idle = false
}

/// A channel's ring and every subscriber's place in it, under its lock.
@usableFromInline
struct ChannelState<E: BusEvent>: ~Copyable {
    @inlinable static var batchLimit: Int { 1024 }

    @usableFromInline var ring: [E?]
    /// Sequence number of the next event to publish.
    @usableFromInline var head = 0
    @usableFromInline var inline: [Subscriber<E>] = [] {
        didSet { inlineSnapshot = InlineSnapshot(strong: inline) }
    }
    @usableFromInline var inlineSnapshot: InlineSnapshot<E> = .empty
    @usableFromInline var inlineDraining = false
    @usableFromInline var inlineNext = 0
    /// Next sequence number per executor subscriber.
    var cursors: [ObjectIdentifier: Int] = [:]
    /// Executor subscribers with nothing pending and no drain scheduled.
    @usableFromInline var idle: [Subscriber<E>] = []

    /// `ring.count - 1`; the count is a power of two.
    @usableFromInline let mask: Int

    init(capacity: Int) {
        precondition(capacity.nonzeroBitCount == 1, "ring capacity must be a power of two")
        ring = Array(repeating: nil, count: capacity)
        mask = capacity - 1
    }

    @inlinable
    mutating func append(_ event: E) {
        ring[head & mask] = event
        head += 1
    }

    mutating func add(_ subscriber: Subscriber<E>) {
        if subscriber.executor == nil {
            inline.append(subscriber)
        } else {
            cursors[ObjectIdentifier(subscriber)] = head
            idle.append(subscriber)
        }
    }

    mutating func remove(_ subscriber: Subscriber<E>) {
        inline.removeAll { $0 === subscriber }
        cursors[ObjectIdentifier(subscriber)] = nil
        idle.removeAll { $0 === subscriber }
    }

    /// Skips what was overwritten; returns how many events that was.
    @inlinable
    mutating func skipOverwritten(_ next: inout Int) -> Int {
        guard head - next > ring.count else { return 0 }
        let missed = head - ring.count - next
        next = head - ring.count
        return missed
    }

    @inlinable
    func copy(from next: inout Int, into batch: inout [E]) {
        while next < head, batch.count < Self.batchLimit {
            batch.append(ring[next & mask]!)
            next += 1
        }
    }

    /// For the inline token holder: the pending events, the first one's
    /// sequence number, how many were skipped, and who to deliver to. Gives
    /// the token back when nothing is pending.
    @inlinable
    mutating func nextInlineBatch(into batch: inout [E], subscribers: inout InlineSnapshot<E>) -> (Int, Int) {
        var next = inlineNext
        let missed = skipOverwritten(&next)
        let first = next
        copy(from: &next, into: &batch)
        inlineNext = next
        if batch.isEmpty { inlineDraining = false } else { subscribers = inlineSnapshot }
        return (first, missed)
    }

    /// For an executor subscriber: up to `batchLimit` pending events. Only a
    /// caught-up subscriber is marked idle, so at most one of its drains runs.
    mutating func nextBatch(for subscriber: Subscriber<E>, into batch: inout [E]) -> BatchResult {
        let key = ObjectIdentifier(subscriber)
        guard var next = cursors[key] else { return BatchResult(idle: true) }
        var result = BatchResult(missed: skipOverwritten(&next))
        copy(from: &next, into: &batch)
        cursors[key] = next
        if batch.isEmpty && result.missed == 0 {
            idle.append(subscriber)
            result.idle = true
        }
        return result
    }
}
