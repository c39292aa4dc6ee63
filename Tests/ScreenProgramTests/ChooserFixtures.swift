import Foundation
@testable import Services
@testable import ChooserApp
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// States of the chooser for snapshot and reducer tests, built through the
/// reducer itself.
enum Fixture {
    static let session = SessionKey("pts/1")!
    static let now = Moment(secondsSince1970: 1_800_000_000)

    static let guide = Guide(title: "Tonight", shows: [
        Show(id: "news", time: "18:00", channel: "Channel 1", title: "Evening News"),
        Show(id: "sky", time: "19:00", channel: "Channel 4", title: "The Sky at Night"),
        Show(id: "codebreakers", time: "20:00", channel: "Channel 2", title: "Codebreakers"),
        Show(id: "bugs", time: "20:30", channel: "Channel 3", title: "Bugs in the Machine"),
        Show(id: "engine", time: "22:00", channel: "Channel 2", title: "The Analytical Engine"),
    ])

    static let providers = [
        ProviderChoice(id: "github", name: "GitHub"),
        ProviderChoice(id: "work", name: "Work SSO", problem: "needs client_id in config.toml"),
        ProviderChoice(id: "demo", name: "Demo"),
    ]

    static func identity(_ provider: ProviderID, _ subject: String, _ name: String, email: String? = nil, state: CredentialState = .authorized) -> LinkedIdentity {
        LinkedIdentity(identity: Identity(provider: provider, subject: subject), displayName: name, email: email, emailVerified: email != nil, state: state)
    }

    static let ada = Account(id: AccountID(1), name: "Ada Lovelace", identities: [
        identity("demo", "ada", "Ada Lovelace", email: "ada@example.org"),
        identity("github", "583231", "Ada Lovelace", email: "ada@example.org"),
    ])
    static let grace = Account(id: AccountID(2), name: "Grace Hopper", identities: [
        identity("microsoft", "oid-7", "Grace Hopper", email: "grace@navy.example", state: .expired),
    ])
    static let zoe = Account(id: AccountID(3), name: "Zoë Ångström", identities: [
        identity("google", "zoe", "Zoë Ångström", email: "zoe@example.se", state: .revoked),
        identity("demo", "zoe", "Zoë Ångström"),
    ])
    static let alan = Account(id: AccountID(4), name: "Alan Turing", identities: [identity("gitlab", "alan", "Alan Turing")])

    static func state(
        size: Size, accounts: [Account] = [], active: Account? = nil, favourites: Set<String> = [], protected: Set<AccountID> = []
    ) -> AppState {
        var state = AppState(session: session, size: size, now: now, guide: guide, theme: .builtIn, providers: providers)
        _ = state.reduce(.loaded(AccountList(accounts, protected: protected), active: active.map(ActiveAccount.account) ?? .anonymous))
        if let active { _ = state.reduce(.favouritesLoaded(active.id, favourites)) }
        return state
    }

    static func several(size: Size, protected: Set<AccountID> = []) -> AppState {
        state(size: size, accounts: [ada, grace, zoe, alan], active: ada, favourites: ["codebreakers"], protected: protected)
    }

    /// The names of the accounts that pass the filter, in order.
    static func visibleNames(_ state: AppState) -> [String] {
        (0..<state.accounts.visibleCount).compactMap { state.accounts.account(at: $0)?.name }
    }

    /// Presses `keys` on the chooser, a station or the tour, at its present time.
    @discardableResult
    static func press<Layer: ChooserLayer>(_ keys: Key..., on state: inout Layer) -> [Layer.LayerEffect] {
        keys.flatMap { state.reduce(Layer.chooser(.input(.key($0))), at: state.chooser.now) }
    }

    static func type<Layer: ChooserLayer>(_ text: String, on state: inout Layer) {
        for c in text { _ = state.reduce(Layer.chooser(.input(.key(.character(c)))), at: state.chooser.now) }
    }

    /// A code as the dialog shows it, with a real QR code.
    static func code(demo: Bool = true, polls: Int = 2) -> WaitingCode {
        var code = WaitingCode(
            userCode: "WDJB-MJHT", verificationURI: "http://127.0.0.1:8628/device",
            completeURI: "http://127.0.0.1:8628/device?user_code=WDJB-MJHT", expiresAt: now.advanced(by: 299),
            interval: 5, demoServer: demo ? "http://127.0.0.1:8628" : nil,
            qrRows: WaitingCode.qrRows("http://127.0.0.1:8628/device?user_code=WDJB-MJHT"))
        code.polls = polls
        return code
    }
}
