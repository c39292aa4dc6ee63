import ChooserUI
import Store
import SwitchboardCore

/// What each pane listens to on the bus. Panes are never called directly:
/// a change anywhere is published, and each pane's subscription turns the
/// events it cares about into actions for the one UI loop.
@MainActor
enum PaneSubscriptions {
    /// Subscribes every pane; keep the subscriptions as long as the panes live.
    static func subscribe(bus: NotificationBus, database: AppDatabase, session: SessionKey, send: @escaping @MainActor (Action) -> Void) -> [Subscription] {
        [
            // Status bar and accounts pane: who is active, in any session.
            bus.subscribe(UserStatusChanged.self, name: "status bar") { send(.statusChanged($0)) },
            // Accounts pane: accounts and identity states.
            bus.subscribe(AccountsChanged.self, name: "accounts pane") { _ in send(.accountsChanged) },
            bus.subscribe(IdentityStateChanged.self, name: "accounts pane") { send(.identityChanged($0)) },
            // Guide pane: whose guide to show, with their favourites.
            bus.subscribe(UserStatusChanged.self, name: "guide pane") { change in
                guard change.session == session else { return }
                send(guideAction(for: change.current.account, database: database))
            },
            // Sign-in dialog: polls and slow-downs.
            bus.subscribe(SignInProgress.self, name: "sign-in dialog") { send(.signInProgress($0)) },
            // Everything: the theme.
            bus.subscribe(ThemeChanged.self, name: "theme") { send(.themeChanged($0.theme)) },
        ]
    }

    /// The guide for `person`, with their favourites read from the store.
    static func guideAction(for person: Account?, database: AppDatabase) -> Action {
        guard let person else { return .guideFor(nil, favourites: []) }
        return .guideFor(person, favourites: (try? database.favourites(of: person.id)) ?? [])
    }
}
