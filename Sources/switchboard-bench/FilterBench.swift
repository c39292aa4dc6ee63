import Foundation
import Store
import Services
import ChooserApp
import ChooserUI
import SwitchboardCore
import TerminalUI

/// `filter-100k-ms`: typing a filter over 100,000 synthetic accounts, in-process.
extension TUIBench {
    // MARK: filter-100k-ms

    /// Types "/ada lo" and then backspaces to nothing over `accounts`
    /// synthetic accounts, timing reduce plus `Screen.draw` per keystroke;
    /// each keystroke's time is the median of seven repeats.
    static func filterTyping(accounts count: Int) throws
        -> (worst: Double, median: Double, worstCPU: Double, steps: [(key: String, seconds: Double)])
    {
        let accounts = (0..<count).map(Synthetic.account)
        let list = AccountList(accounts)
        let theme = ThemeSelection.resolve(requested: nil, environment: [:], builtInText: BundledFiles.themeText).theme.reduced(toColors: 256)
        var start = AppState(
            session: SessionKey("bench")!, size: Size(width: columns, height: rows), now: Moment.now(), guide: (try? Guide.bundled()) ?? Guide(title: "", shows: []),
            theme: theme, providers: [])
        _ = start.reduce(.loaded(list, active: .anonymous))
        let query = "ada lo"
        let keys: [Key] = [.character("/")] + query.map { Key.character($0) } + Array(repeating: .backspace, count: query.count)
        var times = Array(repeating: [Double](), count: keys.count), cpuTimes = times
        var shown: [(filter: String, visible: [Int])] = []
        for round in 0..<7 {
            var state = start
            for (index, key) in keys.enumerated() {
                let begin = now(), beginCPU = threadCPU()
                _ = state.reduce(.input(.key(key)))
                let buffer = Screen.draw(state)
                times[index].append(now() - begin)
                cpuTimes[index].append(threadCPU() - beginCPU)
                if round == 0 {
                    precondition(buffer.size == state.size)
                    shown.append((state.accounts.filter, state.accounts.visible.map { $0.map(Int.init) } ?? Array(accounts.indices)))
                }
            }
        }
        // Every keystroke's result, and a few more queries, against the
        // plain rule: the accounts whose text (each field lower-cased, one
        // already in it left out) holds the query's characters in order,
        // best first, equal scores in the list's order.
        let texts = accounts.map { account in
            var text = Array(account.name.lowercased().utf8)
            for identity in account.identities {
                for field in [identity.provider.rawValue, identity.email, identity.displayName].compactMap({ $0 }) {
                    let bytes = Array(field.lowercased().utf8)
                    if firstPlace(of: bytes, in: text[...]) == nil { text += [0x1F] + bytes }
                }
            }
            return text
        }
        let more = ["ÅNGSTRÖM", "zoë", "é", "example.org", "github", "x", "ada lovelace", "adlv", "qqqq", String(repeating: "ada ", count: 40)]
        let checked = shown + more.map { (filter: $0, visible: (list.matches($0) ?? []).map(Int.init)) }
        for (filter, visible) in checked {
            let units = filter.lowercased().unicodeScalars.map { Array(String($0).utf8) }
            let expected = texts.indices.filter { index in
                var rest = texts[index][...]
                for unit in units {
                    guard let found = firstPlace(of: unit, in: rest) else { return false }
                    rest = rest[found...].dropFirst(unit.count)
                }
                return true
            }
            guard visible.sorted() == expected else {
                throw BenchError("filter “\(filter)” showed \(visible.count) accounts, expected \(expected.count)")
            }
            guard !filter.isEmpty else { continue }
            let scores = visible.map { list.score(filter, at: $0) ?? .min }
            for step in visible.indices.dropFirst() where scores[step] > scores[step - 1] || scores[step] == scores[step - 1] && visible[step] < visible[step - 1] {
                throw BenchError("filter “\(filter)” ranked \(visible[step]) after \(visible[step - 1])")
            }
        }
        var typed = ""
        let steps = keys.enumerated().map { index, key -> (key: String, seconds: Double) in
            switch key {
            case .character(let c): if c != "/" { typed.append(c) }
            default: typed.removeLast()
            }
            let label = key == .character("/") ? "/" : key == .backspace ? "⌫→“\(typed)”" : "“\(typed)”"
            return (label, median(times[index]))
        }
        let perKey = steps.map(\.seconds)
        return (perKey.max()!, median(perKey), cpuTimes.map(median).max()!, steps)
    }

}

/// Where `needle` first occurs in `haystack`: the index of its first byte.
private func firstPlace(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard !needle.isEmpty else { return haystack.startIndex }
    guard needle.count <= haystack.count else { return nil }
    return (haystack.startIndex...(haystack.endIndex - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}

enum Synthetic {
    static let first = [
        "Ada", "Grace", "Alan", "Zoë", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret", "Ken", "Radia",
        "Dennis", "Karen", "Tim", "Hedy", "Claude", "Sophie", "Linus", "Adele", "Niklaus", "Jean", "Guido", "Anita",
        "Bjarne", "Shafi", "Leslie", "Lynn", "Tony", "Mary", "Yukihiro", "Åsa", "Jürgen", "Chloé", "Ngozi", "Wei",
    ]
    static let last = [
        "Lovelace", "Hopper", "Turing", "Ångström", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Hamilton",
        "Thompson", "Perlman", "Ritchie", "Spärck Jones", "Berners-Lee", "Lamarr", "Shannon", "Wilson", "Torvalds",
        "Goldberg", "Wirth", "Sammet", "van Rossum", "Borg", "Stroustrup", "Goldwasser", "Lamport", "Conway", "Hoare",
        "Keller", "Matsumoto", "Lindqvist", "Schmidhuber", "Lefèvre", "Okafor", "Zhang", "Lopez", "Lowe",
    ]
    static let providers: [ProviderID] = ["github", "google", "microsoft", "gitlab", "demo", "work"]
    static let domains = ["example.org", "mail.example.com", "uni.example.edu", "corp.example.net"]

    /// Account `index` (ids from 1), with one to three identities at distinct providers.
    static func account(_ index: Int) -> Account {
        var random = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ 0xD1B5_4A32_D192_ED03
        func next(_ bound: Int) -> Int {
            random ^= random >> 33
            random = random &* 0xFF51_AFD7_ED55_8CCD
            random ^= random >> 29
            return Int(random % UInt64(bound))
        }
        let given = first[next(first.count)], family = last[next(last.count)]
        let name = "\(given) \(family)"
        let handle = (given + "." + family).lowercased().filter { $0.isLetter || $0 == "." }
        let count = index % 3 == 0 ? 2 : (index % 17 == 0 ? 3 : 1)
        let start = next(providers.count)
        let identities = (0..<count).map { offset in
            let provider = providers[(start + offset) % providers.count]
            let states: [CredentialState] = [.authorized, .authorized, .authorized, .authorized, .expired, .revoked, .notFound]
            return LinkedIdentity(
                identity: Identity(provider: provider, subject: "\(provider.rawValue)-\(index)"),
                displayName: offset == 0 ? name : "\(given) at \(provider.rawValue)",
                email: "\(handle)\(index % 97)@\(domains[next(domains.count)])", emailVerified: true,
                state: states[next(states.count)])
        }
        return Account(id: AccountID(Int64(index + 1)), name: name, identities: identities)
    }
}

/// Why a figure could not be taken.
