import ChooserUI
import Services
import SwitchboardCore

/// What each pane listens to on the bus. Panes are never called directly:
/// a change anywhere is published, and each pane's subscription turns the
/// events it cares about into actions for the one UI loop.
@MainActor
enum PaneSubscriptions {
    /// Subscribes every pane; keep the subscriptions as long as the panes live.
    /// Handlers only turn events into actions: what an action needs from
    /// the store, the reducer asks for as an effect.
    static func subscribe(bus: NotificationBus, send: @escaping @MainActor (Action) -> Void) -> [Subscription] {
        [
            // Status bar, accounts pane and guide: who is active, in any session.
            // Changes missed (a burst of them) are made up by reading the accounts and who is active again.
            bus.subscribe(UserStatusChanged.self, name: "status bar", onLag: { _ in send(.accountsChanged(AccountsChanged(accounts: []))) }) {
                send(.statusChanged($0))
            },
            // Accounts pane: accounts and identity states.
            bus.subscribe(AccountsChanged.self, name: "accounts pane", onLag: { _ in send(.accountsChanged(.anyAccount)) }) {
                send(.accountsChanged($0))
            },
            bus.subscribe(IdentityStateChanged.self, name: "accounts pane") { send(.identityChanged($0)) },
            // Sign-in dialog: polls and slow-downs.
            bus.subscribe(SignInProgress.self, name: "sign-in dialog") { send(.signInProgress($0)) },
            // Status bar and every key that writes: a shared store's server going and coming back.
            bus.subscribe(StoreReachabilityChanged.self, name: "status bar") { send(.storeOffline($0.online ? nil : $0.detail)) },
            // Everything: the theme.
        ]
    }
}
