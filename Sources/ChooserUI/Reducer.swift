import ScreenKit
import SwitchboardCore
import TerminalUI

extension AppState {
    /// The one place the chooser's state changes: applies `action` and
    /// returns the work the UI loop must do. Pure: no I/O, the time comes
    /// with the actions. A layer around the chooser (a station, the tour)
    /// calls it for the chooser's part.
    public mutating func reduce(_ action: Action) -> [Effect] {
        apply(action)
    }

    /// `reduce` for an action that came at `now`, as the UI loop sends every one.
    public mutating func reduce(_ action: Action, at now: Moment) -> [Effect] {
        self.now = now
        return reduce(action)
    }

    /// The chooser's reducer.
    mutating func apply(_ action: Action) -> [Effect] {
        switch action {
        case .input(.resize(let size)):
            self.size = size
            clampAll()
            return []
        case .input(.key(let key)):
            return handle(key)
        case .input(.mouse(let mouse)):
            handle(mouse)
            return []
        case .tick(let date):
            now = date
            toasts.removeAll { $0.expiresAt <= date }
            return []
        case .started:
            return []
        case .terminate:
            return quit()
        case .loaded(let list, let active):
            return load(list, active: active)
        case .rowsRead(let read, let offset):
            accounts.list.add(read, offset: offset, shown: shownIDs)
            return []
        case .indexRead(let refresh):
            return indexRead(refresh)
        case .accountsChanged(let change):
            let selected = accounts.selectedItem
            accounts.list.markStale(change.accounts, all: change.everything)
            if accounts.list.index == nil {
                refilter()
                keepSelection(selected)
            }
            return [.reload]
        case .statusChanged(let change):
            return statusChanged(change)
        case .favouritesLoaded(let id, let favourites):
            guard active.id == id else { return [] }
            if guide.favouritesOf != id {
                // A new person's guide starts at the top, their stars first.
                guide.favouritesOf = id
                guide.selection = 0
                guide.scroll = 0
                guide.favourites = favourites
                guide.shows = guide.guide.ordered(favourites: favourites)
                clampAll()
            } else {
                showFavourites(favourites)
            }
            return []
        case .favouriteSaved(let show, let starred, let id):
            guard active.id == id else { return [] }
            var favourites = guide.favourites
            if starred { favourites.insert(show) } else { favourites.remove(show) }
            showFavourites(favourites)
            return []
        case .identityChanged(let change):
            if !change.current.isAvailable, change.previous != change.current {
                // The pane already holds the rows shown, and the active person: no store read for the name.
                let account = owner(of: change.identity)
                let whose = account.map { "\($0.name.displaySafe)'s " } ?? ""
                let which = account?.label(of: change.identity).displaySafe ?? change.identity.provider.rawValue
                notify("\(whose)\(which) sign-in is \(change.current.rawValue) — sign in again to use it.", .warning)
            }
            return [.reload]
        case .codeReady(let code):
            updateSignIn { $0.phase = .waiting(code) }
            return []
        case .signInProgress(let progress):
            updateSignIn { dialog in
                guard case .waiting(var code) = dialog.phase else { return }
                switch progress.phase {
                case .polling(let attempt): code.polls = attempt
                case .slowedDown(let interval): code.interval = interval
                default: return
                }
                dialog.phase = .waiting(code)
            }
            return []
        case .signInTraced(let entries):
            // Each carries every entry so far: a late one never takes entries away.
            updateSignIn { if entries.count >= $0.trace.count { $0.trace = entries } }
            return []
        case .signInEnded(let ending, let conflict):
            if let conflict {
                dialog = .conflict(conflict)
            } else if case .cancelled = ending.outcome {
                if case .signIn = dialog { dialog = nil }
            } else {
                updateSignIn { $0.phase = .finished(ending) }
            }
            return []
        case .themeChanged(let theme):
            self.theme = theme
            return []
        case .storeWaiting(let waiting):
            storeWaiting = waiting
            return []
        case .detailRead(let detail):
            self.detail = detail
            return []
        case .storeOffline(let detail):
            let wasOffline = storeOffline != nil
            storeOffline = detail
            // Back: what other stations changed meanwhile is read with the list.
            return detail == nil && wasOffline ? [.reload] : []
        case .notify(let text, let kind):
            notify(text, kind)
            return []
        case .signedInFound(let provider, let people):
            guard case .signIn(var signIn) = dialog, case .choosing = signIn.phase, signIn.provider?.id == provider else { return [] }
            let effects = offer(people, in: &signIn)
            dialog = .signIn(signIn)
            return effects
        case .pinNeeded(let id):
            openPIN(for: id)
            return []
        case .pinChecked(let id, let check):
            guard case .pin(var pin) = dialog, pin.subject.id == id else { return [] }
            pinChecked(&pin, check)
            return []
        }
    }

    /// The store's answer to the PIN of the dialog open: right or failed
    /// closes it (what it opened goes on elsewhere), wrong or locked out is said in it.
    mutating func pinChecked(_ pin: inout PINDialog, _ check: PINCheck) {
        pin.field.checked(check)
        switch check {
        case .accepted, .failed: dialog = nil
        case .wrong, .locked: dialog = .pin(pin)
        }
    }

    /// What `o` says where no browser could be opened: the URL to open
    /// elsewhere first, so that the one line a toast shows keeps it, then why.
    public static func noBrowser(url: String, why: String) -> String {
        "Open \(url) in a browser elsewhere: \(why)."
    }

    /// Adds a toast that goes away after `toastSeconds`.
    public mutating func notify(_ text: String, _ kind: Toast.Kind) {
        // The same message again stays one toast, shown afresh.
        toasts.removeAll { $0.text == text && $0.kind == kind }
        toasts.append(Toast(id: nextToastID, text: text, kind: kind, expiresAt: now.advanced(by: Self.toastSeconds)))
        nextToastID += 1
        if toasts.count > 3 { toasts.removeFirst(toasts.count - 3) }
    }

    private mutating func updateSignIn(_ change: (inout SignInDialog) -> Void) {
        guard case .signIn(var signIn) = dialog else { return }
        change(&signIn)
        dialog = .signIn(signIn)
    }

    // MARK: Store and bus

    private mutating func load(_ read: AccountList, active: ActiveAccount) -> [Effect] {
        let selected = accounts.selectedItem
        // Tokens may have been refreshed or stored since: the detail line's facts are read again.
        detail = nil
        // At a station the order must not tell who was there last.
        var list = read.ordered(accounts.order) ?? read
        list.keepIndex(of: accounts.list)
        accounts.list = list
        refilter()
        let effects = becomeActive(active)
        keepSelection(selected)
        clampAll()
        return effects
    }

    /// A built or refreshed index: the filter runs on it, the selection
    /// stays on its account. One older than a change made here is dropped,
    /// and the accounts read again; so are accounts changed meanwhile.
    private mutating func indexRead(_ refresh: IndexRefresh) -> [Effect] {
        let selected = accounts.selectedItem
        guard accounts.list.take(refresh) else { return [.reload] }
        refilter()
        keepSelection(selected)
        clampAll()
        return accounts.list.allStale || !accounts.list.stale.isEmpty ? [.reload] : []
    }

    /// The accounts this state shows now.
    public var shownIDs: [AccountID] {
        guard let layout else { return [] }
        return (accounts.scroll..<accounts.scroll + layout.accountItemsShown).compactMap { index in
            accounts.position(ofItem: index).flatMap(accounts.list.id(at:))
        }
    }

    /// The account with `identity`, if the pane holds it (the active person, or a row read).
    public func owner(of identity: Identity) -> Account? {
        if let person = active.account, person.identities.contains(where: { $0.identity == identity }) { return person }
        return accounts.list.rows.values.first { $0.identities.contains { $0.identity == identity } }
    }

    /// Selects the account that was selected, where it is now.
    private mutating func keepSelection(_ selected: AccountItem?) {
        if case .account(let id)? = selected, let index = accounts.itemIndex(of: id) { accounts.selection = index }
    }

    /// Makes `person` the one who is active here; another person than
    /// before gets their own guide, whose stars are read next.
    mutating func becomeActive(_ person: ActiveAccount) -> [Effect] {
        let changed = active.id != person.id
        active = person
        guard changed else { return [] }
        guide.favouritesOf = nil
        guide.selection = 0
        guide.scroll = 0
        showFavourites([])
        return person.id.map { [.loadFavourites($0)] } ?? []
    }

    private mutating func statusChanged(_ change: UserStatusChanged) -> [Effect] {
        guard change.session == session else {
            if case .revoked(let identity) = change.reason, let name = change.previous.account?.name {
                notify("Session \(change.session) was signed out: \(identity.provider) revoked \(name.displaySafe)'s token.", .warning)
            }
            return [.reload]
        }
        var effects = becomeActive(change.current)
        if change.reason == .switched { effects += signInAgain(as: change.current.id) }
        switch change.reason {
        case .revoked(let identity):
            let name = change.previous.account?.name.displaySafe ?? "The active account"
            notify("\(name) was signed out: \(identity.provider) revoked the token.", .warning)
        case .disconnected(let identity):
            notify("Disconnected \(identity.provider); the account is gone, so this session is anonymous.", .info)
        case .external:
            notify("Another program changed who is active: now \(change.current.account?.name.displaySafe ?? "Anonymous").", .info)
        case .linked(let identity):
            let which = change.current.account?.label(of: identity).displaySafe ?? identity.provider.rawValue
            notify("Linked \(which) to \(change.current.account?.name.displaySafe ?? "the account").", .info)
        case .merged:
            notify("Merged the accounts into \(change.current.account?.name.displaySafe ?? "the active one").", .info)
        case .switched, .signedIn, .signedOut:
            break
        }
        switch change.reason {
        case .switched:
            // The store put the person first (most recent use): the list follows from the fact, with no read.
            if let account = change.current.account, !accounts.byName {
                let selected = accounts.selectedItem
                let before = accounts.list.position(of: account.id)
                if accounts.list.moveToFront(account) {
                    movedToFront(from: before)
                    keepSelection(selected)
                    clampAll()
                } else {
                    effects.append(.reload)
                }
            }
        case .signedOut:
            break
        default:
            effects.append(.reload)
        }
        return effects
    }

    /// Shows `favourites` as the active person's stars, first in the guide;
    /// the selected show stays selected.
    private mutating func showFavourites(_ favourites: Set<String>) {
        let selected = guide.selectedShow?.id
        guide.favourites = active == .anonymous ? [] : favourites
        guide.shows = guide.guide.ordered(favourites: guide.favourites)
        if let selected, let index = guide.shows.firstIndex(where: { $0.id == selected }) { guide.selection = index }
        clampAll()
    }

    mutating func clampAll() {
        guard let layout else { return }
        clampScroll(selection: &accounts.selection, scroll: &accounts.scroll, count: accounts.itemCount, shown: layout.accountItemsShown)
        clampScroll(selection: &guide.selection, scroll: &guide.scroll, count: guide.shows.count, shown: layout.guideRowsShown)
    }

    // MARK: Filter

    mutating func setFilter(_ text: String) {
        let extends = !accounts.filter.isEmpty && text.hasPrefix(accounts.filter)
        if extends, let visible = accounts.visible, accounts.list.index != nil {
            accounts.shorter.append((accounts.filter, visible))
            if accounts.shorter.count > AccountsPaneState.shorterKept { accounts.shorter.removeFirst() }
        } else if !extends {
            // Erased back to a prefix typed before: its result, kept.
            while let last = accounts.shorter.last, last.filter.count > text.count || last.filter != String(text.prefix(last.filter.count)) {
                accounts.shorter.removeLast()
            }
        }
        if !extends, let last = accounts.shorter.last, last.filter == text {
            accounts.visible = accounts.shorter.removeLast().visible
        } else {
            // Within the result of a shorter prefix: the filter as it was, or one kept.
            let candidates = extends ? accounts.visible : accounts.shorter.last?.visible
            accounts.visible = text.isEmpty ? nil : accounts.list.matches(text, within: candidates) ?? []
        }
        if text.isEmpty { accounts.shorter = [] }
        accounts.filter = text
        accounts.selection = 0
        accounts.scroll = 0
    }

    /// The filter run again over the whole list (it was read again).
    mutating func refilter() {
        accounts.shorter = []
        accounts.visible = accounts.filter.isEmpty ? nil : accounts.list.matches(accounts.filter) ?? []
    }

    /// The account at `position` went to the top: the filter's positions
    /// follow, with no search. The others keep their order (their scores,
    /// and among equal scores their order in the list, are as they were);
    /// the one moved, if it passes, goes first among those scoring as it
    /// does, found by bisection, scoring a few on the way.
    private mutating func movedToFront(from position: Int?) {
        accounts.shorter = []
        guard let visible = accounts.visible else { return }
        // From outside the list read so far: a new place at the top, which a search must decide on.
        guard let position else { return refilter() }
        let moved = Int32(position)
        var shifted = visible.filter { $0 != moved }.map { $0 < moved ? $0 + 1 : $0 }
        if shifted.count < visible.count {
            let list = accounts.list, filter = accounts.filter
            let score = list.score(filter, at: 0) ?? .min
            var low = 0, high = shifted.count
            while low < high {
                let middle = (low + high) / 2
                if (list.score(filter, at: Int(shifted[middle])) ?? .min) > score { low = middle + 1 } else { high = middle }
            }
            shifted.insert(0, at: low)
        }
        accounts.visible = shifted
    }
}
