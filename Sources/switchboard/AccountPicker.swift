import ChooserUI
import SwitchboardCore
import TerminalUI

/// The inline picker `switch` opens on a terminal when no account is named,
/// as fzf's `--height` does: a query line and a few rows under the cursor,
/// nothing else of the screen touched. Type to filter (the chooser's own
/// index and matching), ↑/↓ (or Ctrl-P/Ctrl-N) to move, Enter to choose,
/// Esc or Ctrl-C to leave. The state and its drawing only; `TerminalPicker`
/// runs it on a terminal.
struct AccountPicker {
    /// What a key did.
    enum Outcome: Equatable {
        case more
        case chose(AccountID)
        case left
    }

    private let accounts: [Account]
    private let index: SearchIndex
    private let active: AccountID?
    private(set) var query = ""
    private var matches: [Int32]
    private var selected = 0
    /// Rows shown at most.
    let height: Int

    /// A picker over `accounts` (in the list's order), `active` marked ●.
    init(accounts: [Account], active: AccountID?, height: Int = 10) {
        self.accounts = accounts
        self.active = active
        self.height = max(1, height)
        index = SearchIndex(accounts, order: .recentUse)
        matches = accounts.indices.map { Int32($0) }
    }

    /// Takes one key.
    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .enter:
            guard matches.indices.contains(selected), let id = index.id(at: Int(matches[selected])) else { return .more }
            return .chose(id)
        case .escape, .control("c"), .control("d"), .control("g"): return .left
        case .up, .control("p"), .control("k"): selected = max(0, selected - 1)
        case .down, .control("n"), .control("j"), .tab: selected = min(max(0, matches.count - 1), selected + 1)
        case .backspace:
            guard !query.isEmpty else { return .more }
            query.removeLast()
            refilter()
        case .control("u"):
            query = ""
            refilter()
        case .character(let character) where query.count < Self.longestQuery:
            query.append(character)
            refilter()
        default: break
        }
        return .more
    }

    /// The longest query taken: a paste past it is cut, as no name is longer.
    static let longestQuery = 256

    private mutating func refilter() {
        matches = query.isEmpty ? accounts.indices.map { Int32($0) } : index.matches(query)
        selected = 0
    }

    /// The lines drawn, `width` columns at most each: the query line, then
    /// up to `height` rows (the selected one marked ▸), then, when some are
    /// not shown, how many match.
    func lines(width: Int) -> [String] {
        var lines = ["switch to> " + query.displaySafe]
        let first = max(0, min(selected - height + 1, matches.count - height))
        for (offset, position) in matches.dropFirst(first).prefix(height).enumerated() {
            let account = accounts[Int(position)]
            let marker = first + offset == selected ? "▸" : " "
            let dot = account.id == active ? "●" : " "
            let email = account.identities.lazy.compactMap(\.email).first.map { "  " + $0 } ?? ""
            lines.append("\(marker)\(dot) \(account.name)\(email)".displaySafe)
        }
        if matches.isEmpty { lines.append("  no account matches") }
        lines.append("  \(matches.count) of \(accounts.count)  ⏎ switch  esc leave")
        return lines.map { $0.truncated(toWidth: width) }
    }
}
