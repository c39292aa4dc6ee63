import ScreenKit
import SwitchboardCore
import TerminalUI

extension AppState {
    /// The key table in force now: the open dialog's, the filter's, or the main one.
    public var dialogKeys: KeyMap<DialogCommand>? {
        switch dialog {
        case .signIn(let signIn):
            switch signIn.phase {
            case .choosing: Bindings.chooseProvider
            case .continuing: Bindings.continueOrSignIn
            case .requesting: Bindings.requesting
            case .waiting: Bindings.waiting
            case .finished(let ending): ending.canRetry ? Bindings.finishedRetry : Bindings.finished
            }
        case .conflict(let conflict): conflict.choices.contains(.merge) ? Bindings.conflict : Bindings.conflictNoMerge
        case .disconnect: Bindings.disconnect
        case .pin(let pin): pin.field.isLocked(at: now) ? PINField.lockedKeys : Bindings.pin
        case .signInAgain: Bindings.signInAgain
        case .help: HelpPanel.keys
        case nil: accounts.isFiltering ? FilterLine.keys : nil
        }
    }

    /// A key, through the table in force: the open dialog's or the filter's
    /// (then the keys that work everywhere), else the main one. A command
    /// that cannot act now says why (`unavailable`) and does nothing.
    mutating func handle(_ key: Key) -> [Effect] {
        guard ScreenLayout(size) != nil else {
            // Too small to show anything but the message: only quitting works.
            let command = Bindings.main.command(for: key)
            return command == .quit && unavailable(.quit) == nil ? quit() : []
        }
        if let keys = dialogKeys, let command = keys.command(for: key) {
            if let why = unavailable(command) {
                notify(why.reason, .info)
                return []
            }
            return dialog == nil ? filterCommand(command, key: key) : dialogCommand(command, key: key)
        }
        guard let command = (dialogKeys == nil ? Bindings.main : Bindings.everywhere).command(for: key) else { return [] }
        if let why = unavailable(command) {
            notify(why.reason, .info)
            return []
        }
        return mainCommand(command)
    }

    private mutating func filterCommand(_ command: DialogCommand, key: Key) -> [Effect] {
        switch FilterLine.edit(accounts.filter, by: command, key: key) {
        case .text(let text): setFilter(text)
        case .stop(let clear):
            accounts.isFiltering = false
            if clear { setFilter("") }
        case .move(let rows): moveAccounts(by: rows)
        case .none: break
        }
        return []
    }

    private mutating func mainCommand(_ command: Command) -> [Effect] {
        let layout = layout!
        switch command {
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .pageUp: move(by: -(focus == .accounts ? layout.accountItemsShown : layout.guideRowsShown))
        case .pageDown: move(by: focus == .accounts ? layout.accountItemsShown : layout.guideRowsShown)
        case .top: move(by: -Int.max / 2)
        case .bottom: move(by: Int.max / 2)
        case .switchPane: focus = focus == .accounts ? .guide : .accounts
        case .clearFilter: if !accounts.filter.isEmpty { setFilter("") }
        case .filter:
            focus = .accounts
            accounts.isFiltering = true
        case .select:
            switch accounts.selectedItem {
            case .account(let id):
                guard id != active.id else { return [] }
                // Nothing of an account whose identities were all revoked works: offer a sign-in first.
                if let account = accounts.account(at: accounts.selection), let again = SignInAgainDialog(account: account, providers: providers) {
                    dialog = .signInAgain(again)
                    return []
                }
                return switchTo(id)
            case .add: openSignIn(.signIn)
            case .anonymous: return active == .anonymous ? [] : [.signOut(.asked)]
            case nil: break
            }
        case .add: openSignIn(.signIn)
        case .link: openSignIn(.link)
        case .signOut:
            return signOut()
        case .disconnect:
            if let account = accounts.account(at: accounts.selection) { dialog = .disconnect(DisconnectDialog(account: account)) }
        case .favourite:
            guard let person = active.account, let show = guide.selectedShow else { return [] }
            return [.setFavourite(show.id, starred: !guide.favourites.contains(show.id), account: person.id)]
        case .theme: return [.nextTheme]
        case .help: dialog = .help(scroll: 0)
        case .quit: return quit()
        case .suspend: break  // the terminal suspends before the key reaches here
        }
        return []
    }

    /// A switch, or, for an account with a PIN, the dialog that asks for it.
    mutating func switchTo(_ id: AccountID) -> [Effect] {
        guard accounts.list.protected.contains(id) else { return [.switchAccount(id)] }
        openPIN(for: id)
        return []
    }

    /// Opens the PIN dialog for an account the pane holds.
    mutating func openPIN(for id: AccountID) {
        guard let account = accounts.list.rows[id] ?? active.account.flatMap({ $0.id == id ? $0 : nil }) else { return }
        dialog = .pin(PINDialog(account: account))
    }

    /// Continue as one of `people` (who have an identity at the dialog's
    /// provider that works), or, with nobody, ask for a code at once.
    mutating func offer(_ people: [Account], in signIn: inout SignInDialog) -> [Effect] {
        if !people.isEmpty {
            // The person came to add an account: a new code is what they asked for, so it is the row chosen.
            signIn.phase = .continuing(people: people, selection: people.count)
            return []
        }
        guard let provider = signIn.provider else { return [] }
        signIn.phase = .requesting
        signIn.trace = []
        return [.startSignIn(provider.id, signIn.mode)]
    }

    /// Signs this session out, or says that nobody is signed in.
    mutating func signOut() -> [Effect] {
        guard active != .anonymous else {
            notify("Nobody is signed in to this session.", .info)
            return []
        }
        return [.signOut(.asked)]
    }

    mutating func quit() -> [Effect] {
        isRunning = false
        if case .signIn = dialog { return [.cancelSignIn, .quit] }
        return [.quit]
    }

    private mutating func openSignIn(_ mode: AuthMode) {
        dialog = .signIn(SignInDialog(mode: mode, providers: providers))
    }

    private mutating func move(by delta: Int) {
        if focus == .accounts { moveAccounts(by: delta) } else {
            guide.selection = clampedAdd(guide.selection, delta)
            clampAll()
        }
    }

    private mutating func moveAccounts(by delta: Int) {
        accounts.selection = clampedAdd(accounts.selection, delta)
        clampAll()
    }

    private func clampedAdd(_ a: Int, _ b: Int) -> Int { max(-1, min(Int.max / 4, a &+ b)) }

    // MARK: Dialogs

    private mutating func dialogCommand(_ command: DialogCommand, key: Key) -> [Effect] {
        switch dialog {
        case .signIn(var signIn):
            defer { if case .signIn = dialog { dialog = .signIn(signIn) } }
            return signInCommand(command, &signIn)
        case .conflict(var conflict):
            switch command {
            case .up, .down:
                conflict.selection = max(0, min(conflict.choices.count - 1, conflict.selection + (command == .up ? -1 : 1)))
                dialog = .conflict(conflict)
            case .confirm: return answer(conflict.choices[conflict.selection])
            case .merge: return answer(.merge)
            case .switchAccount: return answer(.switchAccount)
            case .cancel: return answer(.cancel)
            default: break
            }
        case .disconnect(var confirm):
            switch command {
            case .up, .down:
                confirm.selection = max(0, min(confirm.account.identities.count - 1, confirm.selection + (command == .up ? -1 : 1)))
                dialog = .disconnect(confirm)
            case .confirm:
                dialog = nil
                guard let identity = confirm.identity else { break }
                guard accounts.list.protected.contains(confirm.account.id) else { return [.disconnect(identity.identity, pin: nil)] }
                dialog = .pin(PINDialog(.disconnect(identity.identity, from: confirm.account, byOperator: confirm.byOperator)))
            case .cancel: dialog = nil
            default: break
            }
        case .pin(var pin):
            let outcome = pin.field.handle(command, key: key, at: now)
            switch outcome {
            case .edited: dialog = .pin(pin)
            case .close:
                dialog = nil
                signInAfterSwitch = nil
            case .cancelCheck:
                // Esc while a PIN is checked takes the try back, if it is not done yet.
                dialog = nil
                signInAfterSwitch = nil
                return [.cancelPINCheck]
            case .submit(let digits):
                dialog = .pin(pin)
                switch pin.purpose {
                case .switchTo(let account): return [.switchWithPIN(account.id, pin: digits)]
                case .disconnect(let identity, _, let byOperator):
                    return [.disconnect(identity, pin: byOperator ? .operatorPIN(digits) : .account(digits))]
                }
            case .none: break
            }
        case .signInAgain(var again):
            switch command {
            case .up, .down:
                again.selection = max(0, min(again.choices.count - 1, again.selection + (command == .up ? -1 : 1)))
                dialog = .signInAgain(again)
            case .confirm: return answer(again.choices[again.selection], of: again)
            case .retry: return answer(.signIn, of: again)
            case .switchAccount: return answer(.switchAnyway, of: again)
            case .cancel: return answer(.cancel, of: again)
            default: break
            }
        case .help(let scroll):
            dialog = HelpScroll.scrolled(scroll, by: command, page: HelpOverlay.rowsShown(in: self), most: HelpOverlay.maxScroll(in: self))
                .map { .help(scroll: $0) }
        case nil:
            break
        }
        return []
    }

    /// Sign in again: the switch first (with its PIN, if it has one),
    /// then, once this session acts as the account, the sign-in dialog for
    /// the provider, asking for a code at once (`statusChanged`).
    private mutating func answer(_ choice: SignInAgainDialog.Choice, of again: SignInAgainDialog) -> [Effect] {
        dialog = nil
        switch choice {
        case .signIn:
            if let problem = again.provider.problem {
                notify("\(again.provider.name) is not ready: \(problem)", .error)
                return []
            }
            signInAfterSwitch = (again.account.id, again.provider)
            return switchTo(again.account.id)
        case .switchAnyway:
            return switchTo(again.account.id)
        case .cancel:
            return []
        }
    }

    /// The sign-in asked for after a switch (`signInAfterSwitch`), now
    /// that this session acts as `account`; nothing when none was asked
    /// for it.
    mutating func signInAgain(as account: AccountID?) -> [Effect] {
        guard let (wanted, provider) = signInAfterSwitch else { return [] }
        signInAfterSwitch = nil
        guard wanted == account else { return [] }
        var signIn = SignInDialog(mode: .signIn, providers: providers)
        signIn.provider = provider
        let effects = offer([], in: &signIn)
        dialog = .signIn(signIn)
        return effects
    }

    private mutating func answer(_ choice: ConflictChoice) -> [Effect] {
        dialog = nil
        return [.resolveConflict(choice)]
    }

    private mutating func signInCommand(_ command: DialogCommand, _ signIn: inout SignInDialog) -> [Effect] {
        switch (signIn.phase, command) {
        case (.choosing(let selection), .up):
            signIn.phase = .choosing(selection: max(0, selection - 1))
        case (.choosing(let selection), .down):
            signIn.phase = .choosing(selection: min(signIn.providers.count - 1, selection + 1))
        case (.choosing, .pageUp):
            signIn.phase = .choosing(selection: 0)
        case (.choosing, .pageDown):
            signIn.phase = .choosing(selection: max(0, signIn.providers.count - 1))
        case (.choosing(let selection), .confirm):
            guard signIn.providers.indices.contains(selection) else { return [] }
            let provider = signIn.providers[selection]
            if let problem = provider.problem {
                notify("\(provider.name) is not ready: \(problem)", .error)
                return []
            }
            signIn.provider = provider
            // Who else here is signed in with it already (not whoever is active): a list
            // holding every account answers itself; otherwise the store is asked.
            guard signIn.mode == .signIn else { return offer([], in: &signIn) }
            guard accounts.list.isComplete else { return [.findSignedIn(provider.id)] }
            return offer(accounts.list.accounts.filter { account in
                account.id != active.id && account.identities.contains { $0.provider == provider.id && $0.state.isAvailable }
            }, in: &signIn)
        case (.continuing(let people, let selection), .up):
            signIn.phase = .continuing(people: people, selection: max(0, selection - 1))
        case (.continuing(let people, let selection), .down):
            signIn.phase = .continuing(people: people, selection: min(people.count, selection + 1))
        case (.continuing(let people, _), .pageUp):
            signIn.phase = .continuing(people: people, selection: 0)
        case (.continuing(let people, _), .pageDown):
            signIn.phase = .continuing(people: people, selection: people.count)
        case (.continuing(let people, let selection), .confirm):
            guard people.indices.contains(selection) else {
                guard let provider = signIn.provider else { return [] }
                signIn.phase = .requesting
                signIn.trace = []
                return [.startSignIn(provider.id, signIn.mode)]
            }
            dialog = nil
            return switchTo(people[selection].id)
        case (.choosing, .cancel), (.continuing, .cancel):
            dialog = nil
        case (.requesting, .cancel), (.waiting, .cancel):
            dialog = nil
            return [.cancelSignIn]
        case (.waiting(let code), .copy):
            notify("Copied \(code.userCode) to the clipboard.", .info)
            return [.copy(code.userCode)]
        case (.waiting(let code), .open):
            return [.open(code.completeURI ?? code.verificationURI)]
        case (.finished, .close):
            dialog = nil
        case (.finished(let ending), .retry) where ending.canRetry:
            guard let provider = signIn.provider else { return [] }
            signIn.phase = .requesting
            signIn.trace = []
            return [.startSignIn(provider.id, signIn.mode)]
        case (.requesting, .inspect), (.waiting, .inspect), (.finished, .inspect):
            inspectorShown.toggle()
        case (.requesting, .up), (.waiting, .up), (.finished, .up):
            InspectorPane.scroll(&signIn, by: -1, state: self)
        case (.requesting, .down), (.waiting, .down), (.finished, .down):
            InspectorPane.scroll(&signIn, by: 1, state: self)
        case (.requesting, .pageUp), (.waiting, .pageUp), (.finished, .pageUp):
            InspectorPane.scroll(&signIn, by: -max(1, (InspectorPane.extent(self, signIn)?.shown ?? 1) - 1), state: self)
        case (.requesting, .pageDown), (.waiting, .pageDown), (.finished, .pageDown):
            InspectorPane.scroll(&signIn, by: max(1, (InspectorPane.extent(self, signIn)?.shown ?? 1) - 1), state: self)
        default:
            break
        }
        return []
    }

    // MARK: Mouse

    mutating func handle(_ mouse: MouseEvent) {
        guard dialog == nil, let layout else { return }
        switch mouse.kind {
        case .press:
            if layout.accountList.contains(x: mouse.x, y: mouse.y) {
                focus = .accounts
                let index = accounts.scroll + (mouse.y - layout.accountList.y) / ScreenLayout.accountRows
                if index < accounts.itemCount { accounts.selection = index }
            } else if layout.guideList.contains(x: mouse.x, y: mouse.y) {
                focus = .guide
                let index = guide.scroll + (mouse.y - layout.guideList.y)
                if index < guide.shows.count { guide.selection = index }
            }
            clampAll()
        case .scrollUp: move(by: -1)
        case .scrollDown: move(by: 1)
        case .release: break
        }
    }
}
