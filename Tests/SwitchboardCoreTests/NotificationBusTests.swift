import Dispatch
import Foundation
import Synchronization
import Testing
import TestBasics
@testable import SwitchboardCore

private struct Numbered: BusEvent { let n: Int }
private struct Other: BusEvent { let n: Int }
private struct Heavy: BusEvent { let payload: Payload }
private struct Boom: Error {}

/// Thread-safe list of what a subscriber saw.
private final class Seen: Sendable {
    private let values = Mutex<[Int]>([])
    func add(_ n: Int) { values.withLock { $0.append(n) } }
    var all: [Int] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}

@Suite("NotificationBus")
struct NotificationBusTests {
    @Test("10 inline subscribers × 100,000 events: every event, in publish order")
    func orderInline() {
        let bus = NotificationBus()
        let seen = (0..<10).map { _ in Seen() }
        let subscriptions = seen.map { seen in bus.subscribe(Numbered.self, on: .inline) { seen.add($0.n) } }
        for n in 0..<100_000 { bus.publish(Numbered(n: n)) }
        for subscriber in seen { #expect(subscriber.all == Array(0..<100_000)) }
        withExtendedLifetime(subscriptions) {}
    }

    @Test("10 subscribers on their own queues × 10,000 events from 2 publishing threads: each publisher's order kept")
    func orderOnQueues() async throws {
        let events = 10_000
        // A ring larger than the run: every subscriber must get every event.
        let bus = NotificationBus(capacity: 1 << 14)
        let seen = (0..<10).map { _ in Seen() }
        let subscriptions = seen.enumerated().map { index, seen in
            bus.subscribe(Numbered.self, on: .queue(DispatchQueue(label: "sub.\(index)"))) { seen.add($0.n) }
        }
        // Two threads publish evens and odds; each subscriber must see each
        // thread's events in that thread's order, and all of them.
        DispatchQueue.concurrentPerform(iterations: 2) { parity in
            for n in stride(from: parity, to: events, by: 2) { bus.publish(Numbered(n: n)) }
        }
        try await waitUntil("every event delivered") { seen.allSatisfy { $0.count == events } }
        for subscriber in seen {
            let all = subscriber.all
            #expect(all.count == events)
            #expect(all.filter { $0 % 2 == 0 } == Array(stride(from: 0, to: events, by: 2)))
            #expect(all.filter { $0 % 2 == 1 } == Array(stride(from: 1, to: events, by: 2)))
        }
        withExtendedLifetime(subscriptions) {}
    }

    @Test("subscribers get only their type, from the moment they subscribe")
    func typesAndStart() {
        let bus = NotificationBus()
        bus.publish(Numbered(n: -1))  // nobody listening: dropped
        let numbers = Seen(), others = Seen()
        let a = bus.subscribe(Numbered.self, on: .inline) { numbers.add($0.n) }
        bus.publish(Numbered(n: 1))
        let b = bus.subscribe(Other.self, on: .inline) { others.add($0.n) }
        bus.publish(Other(n: 2))
        bus.publish(Numbered(n: 3))
        #expect(numbers.all == [1, 3])
        #expect(others.all == [2])
        withExtendedLifetime((a, b)) {}
    }

    @Test("cancel and release stop delivery")
    func cancelAndRelease() {
        let bus = NotificationBus()
        let cancelled = Seen(), released = Seen()
        let kept = bus.subscribe(Numbered.self, on: .inline) { cancelled.add($0.n) }
        var dropped: Subscription? = bus.subscribe(Numbered.self, on: .inline) { released.add($0.n) }
        #expect(bus.subscriberCount == 2)
        bus.publish(Numbered(n: 1))
        kept.cancel()
        dropped = nil
        bus.publish(Numbered(n: 2))
        #expect(cancelled.all == [1])
        #expect(released.all == [1])
        #expect(bus.subscriberCount == 0)
        #expect(kept.isCancelled && dropped == nil)
    }

    @Test("a subscriber cancelled in the middle of a batch gets nothing after")
    func cancelMidBatch() async throws {
        let bus = NotificationBus()
        let seen = Seen()
        let box = Mutex<Subscription?>(nil)
        let queue = DispatchQueue(label: "slow")
        queue.suspend()  // let a batch build up
        box.withLock { $0 = bus.subscribe(Numbered.self, on: .queue(queue)) { event in
            seen.add(event.n)
            if event.n == 5 { box.withLock { $0?.cancel() } }
        } }
        for n in 0..<100 { bus.publish(Numbered(n: n)) }
        queue.resume()
        try await waitUntil("the subscription cancelled") { box.withLock { $0?.isCancelled == true } }
        queue.sync {}
        #expect(seen.all == Array(0...5))
    }

    @Test("a failing subscriber is logged and does not affect the others")
    func failingSubscriber() {
        let failures = Mutex<[String]>([])
        let bus = NotificationBus { failure in failures.withLock { $0.append(failure.description) } }
        let before = Seen(), after = Seen()
        let a = bus.subscribe(Numbered.self, on: .inline) { before.add($0.n) }
        let b = bus.subscribe(Numbered.self, name: "flaky pane", on: .inline) { event in
            if event.n % 2 == 0 { throw Boom() }
        }
        let c = bus.subscribe(Numbered.self, on: .inline) { after.add($0.n) }
        for n in 0..<10 { bus.publish(Numbered(n: n)) }
        #expect(before.all == Array(0..<10))
        #expect(after.all == Array(0..<10))
        #expect(failures.withLock { $0.count } == 5)
        #expect(failures.withLock { $0.first }?.contains("flaky pane") == true)
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("events published from a handler come after the current one, for every subscriber")
    func nestedPublishKeepsOrder() {
        let bus = NotificationBus()
        let seen = Seen()
        let echo = bus.subscribe(Numbered.self, on: .inline) { event in
            if event.n < 3 { bus.publish(Numbered(n: event.n + 100)) }
        }
        let watcher = bus.subscribe(Numbered.self, on: .inline) { seen.add($0.n) }
        for n in 0..<3 { bus.publish(Numbered(n: n)) }
        #expect(seen.all == [0, 100, 1, 101, 2, 102])
        withExtendedLifetime((echo, watcher)) {}
    }

    @Test("a main-actor subscriber runs on the main actor")
    @MainActor
    func mainActorDelivery() async throws {
        let bus = NotificationBus()
        var received: [Int] = []
        let subscription = bus.subscribe(Numbered.self) { event in
            MainActor.preconditionIsolated()
            received.append(event.n)
        }
        await Task.detached { for n in 0..<50 { bus.publish(Numbered(n: n)) } }.value
        try await waitUntil("50 events") { received.count == 50 }
        #expect(received == Array(0..<50))
        withExtendedLifetime(subscription) {}
    }

    @Test("a slow subscriber does not make memory grow: the ring keeps at most its capacity of events, and it is told what it missed")
    func slowSubscriber() async throws {
        let bus = NotificationBus(capacity: 256)
        let alive = LiveCount()
        let missed = Atomic<Int>(0), slowSeen = Atomic<Int>(0)
        let fast = Seen()
        // A subscriber so slow it gets nothing until everything is published.
        let queue = DispatchQueue(label: "slow")
        queue.suspend()
        let slow = bus.subscribe(Heavy.self, on: .queue(queue), onLag: { missed.add($0, ordering: .relaxed) }) { _ in
            slowSeen.add(1, ordering: .relaxed)
        }
        let counter = bus.subscribe(Heavy.self, on: .inline) { fast.add($0.payload.bytes.count) }
        var mostAlive = 0
        for _ in 0..<100_000 {
            // 4 KiB each: kept unboundedly, 100,000 of them would be 400 MB.
            bus.publish(Heavy(payload: Payload(alive)))
            mostAlive = max(mostAlive, alive.count)
        }
        // What the bus holds is what memory it can cost: the ring, no more.
        #expect(mostAlive <= bus.capacity, "\(mostAlive) events were alive at once")
        #expect(bus.bufferedCount == bus.capacity)
        #expect(fast.count == 100_000)

        // The slow subscriber gets the last `capacity` events and is told it
        // missed the rest: every event delivered or reported missed.
        queue.resume()
        try await waitUntil("every event seen or counted as missed") { missed.load(ordering: .relaxed) + slowSeen.load(ordering: .relaxed) == 100_000 }
        #expect(slowSeen.load(ordering: .relaxed) == bus.capacity)
        #expect(missed.load(ordering: .relaxed) == 100_000 - bus.capacity)
        withExtendedLifetime((slow, counter)) {}
    }
}

/// How many `Payload`s exist.
private final class LiveCount: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func add(_ delta: Int) { value.add(delta, ordering: .relaxed) }
}

/// 4 KiB that count themselves while they exist.
private final class Payload: Sendable {
    let bytes = [UInt8](repeating: 7, count: 4096)
    private let alive: LiveCount

    init(_ alive: LiveCount) {
        self.alive = alive
        alive.add(1)
    }

    deinit { alive.add(-1) }
}
