import Foundation
import Synchronization
import SwitchboardCore

/// Bus throughput against Foundation's `NotificationCenter`: deliveries per
/// second for 1, 10 and 100 subscribers, each checking publish order; and
/// first, how much resident memory a subscriber too slow to keep up costs.
enum BusBench {
    struct Tick: BusEvent {
        let seq: Int
        let who: String
    }

    /// Counts deliveries and checks that sequence numbers only go up by one.
    /// Plain memory, so the bookkeeping costs both contenders next to nothing.
    final class Tally: @unchecked Sendable {
        private let cells = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        init() { cells.initialize(repeating: 0, count: 3); cells[1] = -1 }
        deinit { cells.deallocate() }
        var count: Int { cells[0] }
        var outOfOrder: Int { cells[2] }
        @inline(__always) func see(_ seq: Int) {
            if seq != cells[1] + 1 { cells[2] += 1 }
            cells[1] = seq
            cells[0] += 1
        }
    }

    static let deliveriesPerRun = 4_000_000

    static func run() {
        let memory = slowSubscriberMemory()
        figure("bus-rss-growth-kb", Double(memory.growthKB))
        print("bus-rss-growth: \(memory.growthKB <= rssGrowthGoalKB ? "met" : "MISSED") (goal ≤ \(rssGrowthGoalKB) kB; "
            + "\(memory.delivered) delivered to the slow subscriber, \(memory.missed) skipped)")
        var busRate: [Int: Double] = [:]
        var centerRate: [Int: Double] = [:]
        for subscribers in [1, 10, 100] {
            let events = deliveriesPerRun / subscribers
            busRate[subscribers] = best(of: 3) { bus(subscribers: subscribers, events: events) }
            centerRate[subscribers] = best(of: 3) { center(subscribers: subscribers, events: events / 4) }
            figure("bus@\(subscribers)", busRate[subscribers]!)
            figure("notificationcenter@\(subscribers)", centerRate[subscribers]!)
        }
        for subscribers in [1, 100] {
            figure("ratio@\(subscribers)", busRate[subscribers]! / centerRate[subscribers]!, decimals: 1)
        }
        figure("ratio@10", busRate[10]! / centerRate[10]!, decimals: 1)
    }

    /// The most the process's resident memory may grow while the slow
    /// subscriber falls behind: the events it skips must not be kept.
    static let rssGrowthGoalKB = 64 * 1024

    struct Heavy: BusEvent { let payload: [UInt8] }

    /// Resident memory growth of this process while 100,000 events of 4 KiB
    /// each (400 MB if they were kept) are published to an inline subscriber
    /// and to one on its own queue that takes 0.5 ms an event, on a bus whose
    /// ring holds 256 events; and how many events the slow subscriber got
    /// and was told it skipped (together, every event). A process-wide
    /// figure, so it is measured here, in a process of its own, before
    /// anything else runs, and not in the tests.
    static func slowSubscriberMemory() -> (growthKB: Int, delivered: Int, missed: Int) {
        let events = 100_000
        let bus = NotificationBus(capacity: 256)
        let missed = Mutex(0), delivered = Mutex(0), inline = Mutex(0)
        let slow = bus.subscribe(Heavy.self, on: .queue(DispatchQueue(label: "slow")), onLag: { count in missed.withLock { $0 += count } }) { _ in
            delivered.withLock { $0 += 1 }
            Thread.sleep(forTimeInterval: 0.0005)
        }
        let counter = bus.subscribe(Heavy.self, on: .inline) { event in inline.withLock { $0 += event.payload.count > 0 ? 1 : 0 } }
        let before = residentKB()
        for _ in 0..<events { bus.publish(Heavy(payload: [UInt8](repeating: 7, count: 4096))) }
        let growth = residentKB() - before
        // The slow subscriber catches up with what the ring still holds.
        let deadline = now() + 30
        while delivered.withLock({ $0 }) + missed.withLock({ $0 }) < events, now() < deadline { usleep(1000) }
        slow.cancel()
        if inline.withLock({ $0 }) != events {
            fatalError("bus: the inline subscriber saw \(inline.withLock { $0 }) of \(events) events")
        }
        withExtendedLifetime(counter) {}
        return (growth, delivered.withLock { $0 }, missed.withLock { $0 })
    }

    /// Resident set size of this process in kB, from /proc.
    static func residentKB() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    static func best(of runs: Int, _ body: () -> Double) -> Double {
        (0..<runs).map { _ in body() }.max()!
    }

    /// Inline delivery on the publishing thread, like observers with no queue.
    static func bus(subscribers: Int, events: Int) -> Double {
        let bus = NotificationBus()
        let tallies = (0..<subscribers).map { _ in Tally() }
        let subscriptions = tallies.map { tally in
            bus.subscribe(Tick.self, on: .inline) { tick in
                if !tick.who.isEmpty { tally.see(tick.seq) }
            }
        }
        let start = now()
        for seq in 0..<events { bus.publish(Tick(seq: seq, who: "ada")) }
        let elapsed = now() - start
        check(tallies, events: events, what: "bus")
        withExtendedLifetime(subscriptions) {}
        return Double(events * subscribers) / elapsed
    }

    /// Block observers reading a two-entry `userInfo`.
    static func center(subscribers: Int, events: Int) -> Double {
        let center = NotificationCenter()
        let name = Notification.Name("tick")
        let tallies = (0..<subscribers).map { _ in Tally() }
        let observers = tallies.map { tally in
            center.addObserver(forName: name, object: nil, queue: nil) { note in
                if let seq = note.userInfo?["seq"] as? Int, note.userInfo?["who"] is String { tally.see(seq) }
            }
        }
        let start = now()
        for seq in 0..<events { center.post(name: name, object: nil, userInfo: ["seq": seq, "who": "ada"]) }
        let elapsed = now() - start
        check(tallies, events: events, what: "NotificationCenter")
        observers.forEach(center.removeObserver)
        return Double(events * subscribers) / elapsed
    }

    static func check(_ tallies: [Tally], events: Int, what: String) {
        for tally in tallies where tally.count != events || tally.outOfOrder != 0 {
            fatalError("\(what): a subscriber saw \(tally.count) of \(events) events, \(tally.outOfOrder) out of order")
        }
    }
}
