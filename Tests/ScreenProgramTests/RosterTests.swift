import Foundation
import Store
import SwitchboardCore
import Testing
import TestBasics
import TestSupport
import TerminalUI
@testable import Services
@testable import ChooserApp
@testable import ChooserUI

/// The accounts pane over a roster it does not hold whole: the search
/// index, a list read a page at a time, and the loop reading what it shows.
@Suite("the accounts pane over a big roster")
struct RosterTests {
    static let size = Size(width: 100, height: 30)

    /// `count` accounts with varied names, emails and providers, ids from 1.
    static func people(_ count: Int, from first: Int = 0) -> [Account] {
        let names = ["Ada", "Grace", "Zoë", "Émile", "Alan", "Hedy", "Ngozi", "Åsa"]
        return (first..<first + count).map { index in
            let name = "\(names[index % names.count]) \(index)"
            return Account(id: AccountID(Int64(index + 1)), name: name, identities: [
                LinkedIdentity(
                    identity: Identity(provider: index % 3 == 0 ? "github" : "demo", subject: "s\(index)"), displayName: name,
                    email: "p\(index)@\(index % 2 == 0 ? "example.org" : "mail.example.com")", emailVerified: true),
            ])
        }
    }

    /// Positions of the accounts `query` matches, best first, by the plain rule (`ReferenceFilter`).
    static func plainSearch(_ accounts: [Account], _ query: String) -> [Int32] {
        ReferenceFilter.ranking(accounts, query)
    }

    @Test("the index finds and ranks what the plain rule does over every field, after updates, removals, new accounts, a new order and compaction")
    func index() {
        var accounts = Self.people(300)
        var index = SearchIndex(accounts, order: .recentUse)
        for query in ["ada", "ÉMILE", "example.org", "github", "zoë 1", "qqq", "p29"] {
            #expect(index.matches(query) == Self.plainSearch(accounts, query), "\(query)")
        }
        let ada = Set(Self.plainSearch(accounts, "ada"))
        #expect(index.matches("1", within: index.matches("ada")) == Self.plainSearch(accounts, "1").filter(ada.contains))
        // Renamed identities, a new account, accounts gone, a new order: as the store says after a change.
        for round in 0..<40 {
            accounts[round].identities[0].email = "renamed\(round)@new.example"
            index.update(accounts[round])
        }
        let newcomer = Self.people(1, from: 1000)[0]
        index.update(newcomer)
        accounts = [newcomer] + accounts.filter { $0.id.rawValue % 5 != 0 }.reversed()
        // Worked out on a copy, applied to the index: the same as reordering it.
        var reordered = index
        reordered.reorder(accounts.map(\.id))
        let changes = index.changes(listing: accounts.map(\.id), reread: [])
        let applied = index.apply(changes)
        #expect(applied)
        #expect((0..<index.count).map(index.id(at:)) == (0..<reordered.count).map(reordered.id(at:)))
        #expect(index.count == accounts.count)
        #expect(index.id(at: 0) == newcomer.id && index.position(of: accounts[7].id) == 7)
        #expect(!index.contains(AccountID(5)))
        for query in ["renamed", "new.example", "ada", "p1000", "example.org"] {
            #expect(index.matches(query) == Self.plainSearch(accounts, query), "\(query)")
        }
        // Updated often enough, its garbage is squeezed out; nothing changes for a search.
        for _ in 0..<30 { for account in accounts.prefix(200) { index.update(account) } }
        #expect(index.matches("ada") == Self.plainSearch(accounts, "ada"))
        let moved = index.moveToFront(accounts[9].id)
        #expect(moved)
        #expect(index.id(at: 0) == accounts[9].id && index.id(at: 1) == newcomer.id)
    }

    @Test("ids far apart (a store whose accounts came and went by the million, or bytes no store would write) are found as dense ones are")
    func farIDs() {
        var accounts = Self.people(50)
        accounts[10].id = AccountID(5_000_000_000)
        accounts[20].id = AccountID(-7)
        var index = SearchIndex(accounts, order: .recentUse)
        #expect(accounts.allSatisfy { index.contains($0.id) } && !index.contains(AccountID(11)) && !index.contains(AccountID(0)))
        #expect(index.position(of: AccountID(5_000_000_000)) == 10 && index.position(of: AccountID(-7)) == 20)
        index.reorder(accounts.filter { $0.id.rawValue != 5_000_000_000 }.map(\.id))
        #expect(!index.contains(AccountID(5_000_000_000)) && index.count == 49 && index.id(at: 19) == AccountID(-7))
        #expect(index.matches("zoë 2") == Self.plainSearch(accounts.filter { $0.id.rawValue != 5_000_000_000 }, "zoë 2"))
    }

    @Test("typing a filter and erasing it, even past what was typed, shows what the plain rule shows at every step")
    func typeAndErase() {
        let accounts = Self.people(400)
        var state = Fixture.state(size: Self.size, accounts: accounts)
        _ = Fixture.press(.character("/"), on: &state)
        var typed = ""
        for key in Array("ada 1").map(Key.character) + [.backspace, .backspace, .character("3"), .backspace, .backspace, .backspace]
            + [.backspace, .character("é"), .backspace, .backspace, .backspace]
        {
            _ = state.reduce(.input(.key(key)))
            if case .character(let c) = key { typed.append(c) } else if !typed.isEmpty { typed.removeLast() }
            #expect(state.accounts.filter == typed)
            #expect(state.accounts.visible == (typed.isEmpty ? nil : Self.plainSearch(accounts, typed)), "“\(typed)”")
        }
    }

    @Test("a list read a page at a time: rows are wanted as the selection scrolls past them; a filter waits for the index; an index older than a switch made here is dropped")
    func pages() {
        let accounts = Self.people(500)
        var state = AppState(session: Fixture.session, size: Self.size, now: Fixture.now, guide: Fixture.guide, theme: .builtIn, providers: Fixture.providers)
        let first = AccountList(page: Array(accounts.prefix(64)), offset: 0, count: 500, protected: [], order: .recentUse)
        _ = state.reduce(.loaded(first, active: .anonymous))
        #expect(state.rowsWanted == nil, "the first page covers the first screen")
        #expect(!state.accounts.list.isComplete)
        _ = Fixture.press(.end, on: &state)
        let wanted = state.rowsWanted
        #expect(wanted?.ids == [] && wanted?.positions?.contains(499) == true, "the end of the list: a page by position")
        if let range = wanted?.positions {
            _ = state.reduce(.rowsRead(Array(accounts[range.clamped(to: 0..<500)]), offset: range.lowerBound))
        }
        #expect(state.rowsWanted == nil)
        #expect(state.accounts.account(at: 499)?.name == accounts[499].name)
        // Typed before the index is there: the filter waits, then runs on it.
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("ada 4", on: &state)
        #expect(state.accounts.isSearching && state.accounts.visibleCount == 0)
        #expect(Screen.draw(state).text.contains("Searching…"))
        _ = state.reduce(.indexRead(IndexRefresh(.built(SearchIndex(accounts, order: .recentUse)), revision: 0, reread: [])))
        #expect(state.accounts.visible == Self.plainSearch(accounts, "ada 4"))
        #expect(state.rowsWanted?.ids.isEmpty == false, "the matches' rows are read by id")
        // A switch made here moves the person to the top; an index read before it is out of date.
        let person = accounts[300]
        _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .anonymous, current: .account(person), reason: .switched)))
        #expect(state.accounts.list.id(at: 0) == person.id && state.accounts.list.revision == 1)
        #expect(state.reduce(.indexRead(IndexRefresh(.built(SearchIndex(accounts, order: .recentUse)), revision: 0, reread: []))) == [.reload])
        #expect(state.accounts.list.id(at: 0) == person.id)
        // Another program changed an account: stale until a refresh reads it again.
        #expect(state.reduce(.accountsChanged(AccountsChanged(accounts: [accounts[2].id]))) == [.reload])
        #expect(state.accounts.list.stale == [accounts[2].id])
        let current = state.accounts.list.index!
        var renamed = accounts[2]
        renamed.name = "Renamed Elsewhere"
        let changes = current.changes(listing: (0..<current.count).compactMap(current.id(at:)), reread: [renamed])
        #expect(state.reduce(.indexRead(IndexRefresh(.changes(changes), revision: 1, reread: [accounts[2].id]))).isEmpty)
        #expect(state.accounts.list.stale.isEmpty)
        #expect(state.accounts.list.matches("renamed elsewhere") == [Int32(state.accounts.list.position(of: accounts[2].id)!)])
        // Any account may have changed (a feed that caught up with a burst): the index goes until it is built again.
        #expect(state.reduce(.accountsChanged(.anyAccount)) == [.reload])
        #expect(state.accounts.list.index == nil && state.accounts.isSearching)
    }

    @Test("through the loop and a real store: the first page with the first frame, the end read when scrolled to, the index built after, and kept up to date from another process's changes")
    @MainActor
    func loop() async throws {
        let rig = try await AppRig(interval: 1, start: Date())
        let other = try AppDatabase(path: rig.database.path)
        let feed = try ChangeFeed(database: rig.database, bus: rig.bus)
        var frames: [String] = []
        let state = AppState(session: SessionKey("pts/1")!, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn,
                             providers: [ProviderChoice(id: "demo", name: "Demo")])
        let loop = ChooserLoop(
            state: state,
            environment: ChooserEnvironment(
                database: rig.database, bus: rig.bus, providers: rig.providers, copy: { _ in }, open: { _ in },
                nextTheme: { _ in (Theme.monochrome, nil) }),
            render: { frames.append(Screen.draw($0).text) })
        try await stopping(rig) {
            let people = (0..<150).map { index in
                LinkedIdentity(identity: Identity(provider: "demo", subject: "p\(index)"), displayName: "Person \(index)", email: nil)
            }
            let ids = try Sample.signIn(people, into: rig.database, session: SessionKey("setup")!)
            try await loop.startSettled()
            #expect(loop.state.accounts.list.rows.count == RosterReads.firstPage, "the first frame read one page")
            #expect(frames.first?.contains("150 accounts") == true)
            try await waitUntil("the index") { loop.state.accounts.list.index?.count == 150 }
            loop.send(.input(.key(.end)))
            try await waitUntil("the end of the list read") { loop.state.accounts.list.rows.count > RosterReads.firstPage }
            loop.flush()
            #expect(frames.last?.contains("Person 0") == true, "the oldest account, at the end of the list by use")
            // Another process signs someone in: the index follows, no full read.
            _ = try Sample.signIn([LinkedIdentity(identity: Identity(provider: "demo", subject: "new"), displayName: "Newcomer Q", email: nil)],
                                  into: other, session: SessionKey("elsewhere")!)
            try await waitUntil("the newcomer in the index") { loop.state.accounts.list.index?.count == 151 }
            loop.send(.input(.key(.character("/"))))
            for c in "newcomer" { loop.send(.input(.key(.character(c)))) }
            // Keys typed while a read is out wait for it a moment, then go on in order.
            try await waitUntil("the filter typed") { loop.state.accounts.filter == "newcomer" }
            #expect(loop.state.accounts.visibleCount == 1)
            try await waitUntil("the newcomer's row read") { !loop.link.isBusy }
            loop.flush()
            #expect(frames.last?.contains("Newcomer Q") == true)
            // A sign-in with Demo asks the store whom it may continue as: not the whole roster.
            loop.send(.input(.key(.escape)))
            loop.send(.input(.key(.character("a"))))
            loop.send(.input(.key(.enter)))
            // Whom to offer is read off the main actor.
            try await waitUntil("the continue-as choice") {
                if case .signIn(let dialog) = loop.state.dialog, case .continuing = dialog.phase { true } else { false }
            }
            guard case .signIn(let dialog) = loop.state.dialog, case .continuing(let offered, _) = dialog.phase else {
                Issue.record("expected the continue-as choice: \(String(describing: loop.state.dialog))")
                return
            }
            #expect(offered.count == RosterReads.continueAsLimit && offered.first?.name == "Newcomer Q")
            #expect(!ids.isEmpty)
            loop.send(.input(.key(.escape)))
        }
        feed.cancel()
    }
}
