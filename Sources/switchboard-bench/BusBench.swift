import Foundation
import SwitchboardCore

/// Bus throughput against Foundation's `NotificationCenter`: deliveries per
/// second for 1, 10 and 100 subscribers, each checking publish order.
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
