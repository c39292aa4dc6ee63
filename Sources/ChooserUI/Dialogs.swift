import ScreenKit
import SwitchboardCore

/// A dialog over the panes. At most one is open.
public enum Dialog: Sendable {
    case signIn(SignInDialog)
    case conflict(ConflictDialog)
    case disconnect(DisconnectDialog)
    case pin(PINDialog)
    /// Switching to an account every identity of which was revoked: sign
    /// in again first, switch anyway, or cancel.
    case signInAgain(SignInAgainDialog)
    /// Every key; `scroll` rows of it scrolled away when it does not fit.
    case help(scroll: Int)
}

/// Offered instead of a switch to an account whose every identity was
/// revoked (`Account.needsSignInAgain`): nothing works for it until someone
/// signs in again.
public struct SignInAgainDialog: Sendable {
    /// What the dialog offers, in order.
    public enum Choice: Hashable, Sendable, CaseIterable {
        /// Switch, then sign in with `provider` (the sign-in dialog, at once asking for a code).
        case signIn
        /// Switch as asked, with nothing to use.
        case switchAnyway
        case cancel
    }

    public let account: Account
    /// The provider of a revoked identity, to sign in again with.
    public let provider: ProviderChoice
    public var selection = 0

    /// The dialog for `account`, signing in again with the provider of its
    /// first revoked identity (`providers` name it, when configured); nil
    /// when the account needs no sign-in again.
    public init?(account: Account, providers: [ProviderChoice]) {
        guard account.needsSignInAgain, let revoked = account.revokedIdentities.first else { return nil }
        self.account = account
        provider = providers.first { $0.id == revoked.provider }
            ?? ProviderChoice(id: revoked.provider, name: revoked.provider.rawValue, problem: "it is not configured here")
    }

    public var choices: [Choice] { Choice.allCases }
}

/// Asks for an account's PIN before switching to it: the digits show as •.
public struct PINDialog: Sendable {
    /// What the PIN opens.
    public enum Purpose: Sendable {
        /// A switch to this account, once its PIN is right.
        case switchTo(Account)
        /// Disconnecting an identity of an account with a PIN, once its PIN
        /// (or, opened by an operator, the operator PIN) is right.
        case disconnect(Identity, from: Account, byOperator: Bool)
    }

    public let purpose: Purpose
    /// The PIN typed, and what its last check found.
    public var field = PINField()

    /// An empty dialog for switching to `account`.
    public init(account: Account) { purpose = .switchTo(account) }

    /// An empty dialog for `purpose`.
    public init(_ purpose: Purpose) { self.purpose = purpose }

    /// The account whose PIN is asked for; nil when it is the operator PIN.
    public var account: Account? {
        switch purpose {
        case .switchTo(let account), .disconnect(_, let account, byOperator: false): account
        case .disconnect: nil
        }
    }

    /// The account a PIN typed here acts on, whichever PIN it takes.
    public var subject: Account {
        switch purpose {
        case .switchTo(let account), .disconnect(_, let account, _): account
        }
    }
}

/// The sign-in dialog: pick a provider, show the code, wait, tell the outcome.
public struct SignInDialog: Sendable {
    public enum Phase: Sendable {
        /// Picking a provider; `selection` indexes the dialog's providers.
        case choosing(selection: Int)
        /// The chosen provider already holds an available identity here:
        /// continue as one of `people` (a switch, no code), or, at
        /// `selection == people.count`, sign in with a new code.
        case continuing(people: [Account], selection: Int)
        /// Asking the provider for a code.
        case requesting
        /// Showing the code while the provider waits for the person.
        case waiting(WaitingCode)
        /// Finished, with the screen for its outcome.
        case finished(SignInEnding)
    }

    public var mode: AuthMode
    public var providers: [ProviderChoice]
    public var provider: ProviderChoice?
    public var phase: Phase
    /// The exchanges of the sign-in so far, for the inspector; a new code starts them afresh.
    public var trace: [FlowTraceEntry] = []
    /// The inspector's first row shown while it is scrolled up to older
    /// exchanges; nil while it follows the newest. New exchanges leave it put.
    public var inspectorTop: Int?

    public init(mode: AuthMode, providers: [ProviderChoice]) {
        self.mode = mode
        self.providers = providers
        phase = .choosing(selection: 0)
    }
}

/// The code on screen while waiting for approval.
public struct WaitingCode: Sendable {
    public let userCode: String
    public let verificationURI: String
    /// The URI with the code filled in, when the provider gives one.
    public let completeURI: String?
    public let expiresAt: Moment
    /// Polls made so far, for the poll indicator.
    public var polls = 0
    /// Seconds between polls (grows on slow_down).
    public var interval: Int
    /// The demo provider's address when the provider is the built-in demo,
    /// which gets approval hints.
    public let demoServer: String?
    /// The QR code's rows (half blocks), for the complete URI.
    public let qrRows: [String]

    public init(userCode: String, verificationURI: String, completeURI: String?, expiresAt: Moment, interval: Int, demoServer: String?, qrRows: [String]) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.completeURI = completeURI
        self.expiresAt = expiresAt
        self.interval = interval
        self.demoServer = demoServer
        self.qrRows = qrRows
    }
}

/// How a sign-in ended, as the dialog tells it.
public struct SignInEnding: Hashable, Sendable {
    public let outcome: SignInOutcome
    /// The person it ended as, when approved.
    public let accountName: String?
    public let isNew: Bool
    public let linked: Bool

    public init(outcome: SignInOutcome, accountName: String? = nil, isNew: Bool = false, linked: Bool = false) {
        self.outcome = outcome
        self.accountName = accountName
        self.isNew = isNew
        self.linked = linked
    }

    /// Whether `r` offers to start again.
    public var canRetry: Bool {
        switch outcome {
        case .approved, .cancelled: false
        default: true
        }
    }
}

/// The identity that just signed in belongs to another account: merge,
/// switch or cancel (merge only when the rule allows, `IdentityRule`).
public struct ConflictDialog: Sendable {
    public let identity: Identity
    public let providerName: String
    public let ownerName: String
    public let activeName: String
    public let choices: [ConflictChoice]
    /// What merging means where both accounts hold an identity at one
    /// provider (kept side by side, or why merge is not offered); nil
    /// when they share no provider.
    public let mergeNote: String?
    public var selection = 0

    /// Two accounts of one name are told apart by their numbers ("Merge Ada
    /// Lovelace (account 4) into Ada Lovelace (account 1)"), never named alike.
    public init(conflict: AuthConflict, providerName: String, ownerName: String, activeName: String) {
        identity = conflict.identity
        self.providerName = providerName
        (self.ownerName, self.activeName) = Account.distinctNames((ownerName, conflict.owner), (activeName, conflict.active))
        choices = conflict.choices
        mergeNote = conflict.mergeNote
    }
}

/// Confirms disconnecting one identity of an account.
public struct DisconnectDialog: Sendable {
    public let account: Account
    public var selection = 0
    /// Opened by an operator (a station's operator menu): an account with a PIN takes the operator PIN.
    public let byOperator: Bool

    public init(account: Account, byOperator: Bool = false) {
        self.account = account
        self.byOperator = byOperator
    }

    public var identity: LinkedIdentity? {
        account.identities.indices.contains(selection) ? account.identities[selection] : nil
    }
}
