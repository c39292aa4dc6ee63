import Testing
import SwitchboardCore
import TerminalUI
@testable import ChooserUI

/// The filter's rule, written the plain way to check the index against:
/// an account's text (its name, then each identity's provider, email and
/// display name, lower-cased, a field already in the text left out), and
/// the way the query's characters are found in it, byte by byte.
enum ReferenceFilter {
    /// The text the index keeps for `account`, as UTF-8.
    static func text(of account: Account) -> [UInt8] {
        var text = Array(account.name.lowercased().utf8)
        for identity in account.identities {
            for field in [identity.provider.rawValue, identity.email, identity.displayName].compactMap({ $0 }) {
                let bytes = Array(field.lowercased().utf8)
                if !contains(text, bytes) { text += [0x1F] + bytes }
            }
        }
        return text
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        needle.isEmpty || haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// The score of `query` in `text`, nil when its characters are not all
    /// there in order: the query whole where it occurs, starting at the
    /// text's start, else a word's, else anywhere; otherwise each character
    /// at its earliest place after the one before, or each drawn back from
    /// there to its latest place before the one after it, whichever scores
    /// more.
    static func score(_ query: String, in text: [UInt8]) -> Int32? {
        let units = query.lowercased().unicodeScalars.map { Array(String($0).utf8) }
        guard !units.isEmpty else { return nil }
        func bonus(_ j: Int) -> Int {
            if j == 0 { return 10 }
            let b = text[j - 1]
            return b < 0x80 && !(0x61...0x7A).contains(b) && !(0x30...0x39).contains(b) && !(0x41...0x5A).contains(b) ? 8 : 0
        }
        func found(_ unit: [UInt8], at j: Int) -> Bool { j >= 0 && j + unit.count <= text.count && text[j..<j + unit.count].elementsEqual(unit) }
        let n = units.count
        if let best = (0..<text.count).filter({ found(units.flatMap { $0 }, at: $0) }).map(bonus).max() {
            return Int32(16 * n + 16 * (n - 1) + best)
        }
        var end = 0
        var earliest: [Int] = []
        for unit in units {
            guard let place = (end..<max(end, text.count)).first(where: { found(unit, at: $0) }) else { return nil }
            earliest.append(place)
            end = place + unit.count
        }
        var drawnBack = Array(repeating: 0, count: n)
        for index in (0..<n).reversed() {
            drawnBack[index] = (0...(end - units[index].count)).last { found(units[index], at: $0) }!
            end = drawnBack[index]
        }
        func score(_ places: [Int]) -> Int {
            var score = 16 + bonus(places[0])
            for index in 1..<n {
                let gap = places[index] - (places[index - 1] + units[index - 1].count)
                score += 16 + (gap == 0 ? 16 : bonus(places[index]) - 3 - (gap - 1))
            }
            return score
        }
        return Int32(max(score(earliest), score(drawnBack)))
    }

    /// Positions of the accounts `query` matches, best first, ties in the list's order.
    static func ranking(_ accounts: [Account], _ query: String) -> [Int32] {
        let scored = accounts.indices.compactMap { index in score(query, in: text(of: accounts[index])).map { (index, $0) } }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map { Int32($0.0) }
    }
}

/// The filter matches as fzf does: the query's characters in order, scored,
/// best first; and the pane shows which characters matched.
@Suite("the filter: characters in order, best first, matches highlighted")
struct FuzzyFilterTests {
    static func named(_ names: [String]) -> [Account] {
        names.enumerated().map { Account(id: AccountID(Int64($0.offset + 1)), name: $0.element, identities: []) }
    }

    static func ranked(_ names: [String], _ query: String) -> [String] {
        SearchIndex(named(names), order: .recentUse).matches(query).map { names[Int($0)] }
    }

    @Test("“adlv” finds Ada Lovelace, which a substring search did not")
    func scattered() {
        var state = Fixture.several(size: Size(width: 80, height: 24))
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("adlv", on: &state)
        #expect(Fixture.visibleNames(state) == ["Ada Lovelace"])
        #expect(RowMatches("adlv", in: Fixture.ada).name == [0, 1, 4, 6], "A, d, L and v")
        Fixture.type("q", on: &state)
        #expect(Fixture.visibleNames(state).isEmpty, "no q after the v")
    }

    @Test("the query's characters must all be there, in order")
    func order() {
        #expect(Self.ranked(["Ada Lovelace", "Alan Turing", "Grace Hopper"], "al") == ["Alan Turing", "Ada Lovelace"])
        #expect(Self.ranked(["Ada Lovelace"], "vc") == ["Ada Lovelace"])
        #expect(Self.ranked(["Ada Lovelace"], "cv").isEmpty, "the c comes after the v, not before")
        #expect(Self.ranked(["Ada Lovelace"], "aaa") == ["Ada Lovelace"])
        #expect(Self.ranked(["Ada Lovelace"], "aaaa").isEmpty, "three a's, not four")
    }

    @Test("consecutive characters, the start of a word and the start of the text score higher; a shorter spread beats a wider one; ties keep the list's order")
    func scoring() {
        #expect(Self.ranked(["Lxoxvxe", "Love"], "love") == ["Love", "Lxoxvxe"], "together beats spread")
        #expect(Self.ranked(["Xlove", "Mia Love"], "love") == ["Mia Love", "Xlove"], "at a word's start beats inside one")
        #expect(Self.ranked(["Mia Love", "Love Mia"], "love") == ["Love Mia", "Mia Love"], "at the text's start beats a later word")
        #expect(Self.ranked(["Lxxxxxxv", "Lxv"], "lv") == ["Lxv", "Lxxxxxxv"], "a shorter gap beats a longer one")
        let index = SearchIndex(Self.named(["Bo Ann", "Cy Ann", "Ann"]), order: .recentUse)
        #expect(index.matches("an") == [2, 0, 1], "Ann's start first; the others tie and keep their order")
    }

    @Test("a text holding the query whole scores above one holding it only scattered, whatever their words")
    func substringFirst() {
        // Scattered over word starts, as well as it can be, against whole in the middle of a word.
        #expect(Self.ranked(["A-B-C-D-E", "xxabcde"], "abcde") == ["xxabcde", "A-B-C-D-E"])
        #expect(Self.ranked(["Ab Cd", "zabcd"], "abcd") == ["zabcd", "Ab Cd"])
        // And over many texts from a few letters, every pair.
        var random = SplitMix(seed: 7)
        let letters = Array("ab .c")
        for _ in 0..<300 {
            let texts = (0..<6).map { _ in String((0..<Int(random.next() % 12 + 1)).map { _ in letters[Int(random.next() % UInt64(letters.count))] }) }
            let query = String((0..<Int(random.next() % 3 + 2)).map { _ in letters[Int(random.next() % 3)] })
            let index = SearchIndex(Self.named(texts), order: .recentUse)
            let scores = texts.indices.map { index.score(query, at: $0) }
            for whole in texts.indices where texts[whole].contains(query) {
                for scattered in texts.indices where !texts[scattered].contains(query) {
                    guard let scatteredScore = scores[scattered] else { continue }
                    #expect(scores[whole]! > scatteredScore, "“\(query)” in “\(texts[whole])” and “\(texts[scattered])”")
                }
            }
        }
    }

    @Test("the index ranks as the plain rule does, over every field, and within a shorter query's result as over the whole list")
    func asTheReference() {
        let accounts = RosterTests.people(80)
        let index = SearchIndex(accounts, order: .recentUse)
        for query in ["a", "ada", "adlv", "g1", "zoë", "ÉMILE", "p1@e", "hedy demo", "åsa 7", "orgdemo", "qqq", "..."] {
            #expect(index.matches(query) == ReferenceFilter.ranking(accounts, query), "“\(query)”")
            for position in [0, 7, 31] {
                #expect(index.score(query, at: position) == ReferenceFilter.score(query, in: ReferenceFilter.text(of: accounts[position])))
            }
        }
        // Narrowing: each query within the result of its prefix, whatever that result's order.
        var previous: [Int32]? = nil
        for query in ["e", "ex", "exa", "exa1", "exa12"] {
            let narrowed = index.matches(query, within: previous)
            #expect(narrowed == index.matches(query), "“\(query)”")
            previous = narrowed
        }
    }

    @Test("a switch while a filter is kept moves the person up among those scoring as they do, as a new search would rank them")
    func switchKeepsRanking() {
        let accounts = RosterTests.people(200)
        var state = Fixture.state(size: RosterTests.size, accounts: accounts)
        _ = Fixture.press(.character("/"), on: &state)
        Fixture.type("a1", on: &state)
        _ = Fixture.press(.enter, on: &state)
        let visible = state.accounts.visible ?? []
        #expect(visible.count > 20)
        // One ranked low, one in the middle, one first, and one the filter leaves out.
        let outside = accounts.indices.first { !visible.contains(Int32($0)) }!
        let people = [Int(visible[visible.count - 1]), Int(visible[visible.count / 2]), Int(visible[0]), outside].map { accounts[$0] }
        for person in people {
            let change = UserStatusChanged(session: Fixture.session, previous: state.active, current: .account(person), reason: .switched)
            _ = state.reduce(.statusChanged(change))
            #expect(state.accounts.list.id(at: 0) == person.id)
            #expect(state.accounts.visible == state.accounts.list.matches("a1"), "after a switch to \(person.name)")
        }
    }

    @Test("a character of several bytes matches whole, never as bytes scattered over others")
    func multibyte() {
        // "é" is C3 A9; "à" is C3 A0 and "©" C2 A9.
        #expect(Self.ranked(["à ©", "e"], "é").isEmpty)
        #expect(Self.ranked(["Zoë Ångström", "Zoe Angstrom"], "ÅNGSTRÖM") == ["Zoë Ångström"])
        #expect(Self.ranked(["Zoë Ångström", "Zoe Angstrom"], "zöm") == ["Zoë Ångström"])
        #expect(RowMatches("zöm", in: Fixture.zoe).name == [0, 10, 11], "Z, ö and m, counted in characters")
        #expect(RowMatches("ëå", in: Fixture.zoe).name == [2, 4])
    }

    @Test("a query longer than any text matches nothing, at once, however long")
    func longQuery() {
        let accounts = RosterTests.people(2000)
        let index = SearchIndex(accounts, order: .recentUse)
        let started = ContinuousClock.now
        #expect(index.matches(String(repeating: "a", count: 100_000)).isEmpty)
        #expect(index.matches(String(repeating: "ada ", count: 64)).isEmpty)
        #expect(ContinuousClock.now - started < .seconds(5), "each text is refused by its length")
        // As long as the text, and in it: found.
        let text = String(decoding: ReferenceFilter.text(of: accounts[0]), as: UTF8.self)
        #expect(index.matches(text).first == 0)
    }

    @Test("the characters matched are those of the way scored, in the name and in the providers shown; none without a query or a match")
    func rowMatches() {
        #expect(RowMatches("lovelace", in: Fixture.ada).name == Set(4...11))
        // Ada's identities: demo, then github.
        #expect(RowMatches("hub", in: Fixture.ada).providers == [1: [3, 4, 5]], "“hub” of github")
        #expect(RowMatches("hub", in: Fixture.ada).name.isEmpty)
        #expect(RowMatches("", in: Fixture.ada) == .none)
        #expect(RowMatches("xyz", in: Fixture.ada) == .none)
        let email = RowMatches("@ex", in: Fixture.grace)
        #expect(email.name.isEmpty && email.emails == [0: [5, 11, 12]], "grace@navy.example: its @, then “ex” of example")
    }

    @Test("every shipped theme shows the matched characters apart from the rest, on the selected row and the others, in colour and without",
          arguments: Theme.builtInNames)
    func everyThemeShowsMatches(name: String) throws {
        let theme = try Theme.parse(text: BundledFiles.themeText(name)!, file: "\(name).toml")
        for colours in [256, 8, 0] {
            var state = Fixture.several(size: Size(width: 80, height: 24))
            _ = state.reduce(.themeChanged(theme.reduced(toColors: colours)))
            _ = Fixture.press(.character("/"), on: &state)
            Fixture.type("al", on: &state)  // Alan Turing first (selected), then Ada Lovelace
            let buffer = Screen.draw(state)
            for (row, letters) in [("Alan Turing", "Al"), ("Ada Lovelace", "A")] {
                // In the accounts pane, at the left (the status bar and the guide's title name the active person too).
                func column(_ line: String) -> Int? { line.range(of: row).map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
                let y = try #require(buffer.lines.indices.first { column(buffer.lines[$0]).map { $0 < 6 } == true }, "\(row)")
                let x = column(buffer.lines[y])!
                let matched = buffer[x, y].style, plain = buffer[x + letters.count + 1, y].style
                #expect(matched != plain, "\(name) at \(colours) colours: \(row)'s “\(letters)” looks like its other letters")
            }
        }
    }

    /// A small generator with a seed, so that a failure repeats.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
