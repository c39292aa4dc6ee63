import Foundation
import Services
@testable import Store
import Testing

@Suite("an event of the log in words")
struct EventWordingTests {
    static func entry(kind: String, account: Int64? = nil, name: String? = nil, detail: [String: String] = [:]) -> LogEntry {
        LogEntry(id: 1, at: Date(timeIntervalSince1970: 0), session: "lab-1/pts/3", kind: kind, account: account, accountName: name, detail: detail)
    }

    @Test("who: the account's name, else its number, else nobody (a session that acted as no one)")
    func who() {
        #expect(EventWording.who(Self.entry(kind: "switch", account: 2, name: "Grace Hopper")) == "Grace Hopper")
        #expect(EventWording.who(Self.entry(kind: "merge", account: 7)) == "account 7")
        #expect(EventWording.who(Self.entry(kind: "ended")) == "nobody")
        #expect(EventWording.what(Self.entry(kind: "ended")) == "terminal closed, session ended")
    }
}
