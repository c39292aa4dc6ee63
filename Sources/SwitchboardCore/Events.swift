/// Why a session was signed out, as the log tells it.
public enum SignOutReason: String, Hashable, Sendable {
    /// The person asked (`s`, `switchboard sign-out`): the log says no more.
    case asked
    /// A station's idle time ran out.
    case idle
    /// A station's hand-off command ended.
    case handOffEnded = "hand-off ended"
    /// A station stopped.
    case stopped
    /// A station started and found someone still active in its session,
    /// left from an earlier run (a stop that could not sign out, or a
    /// choice made from the command line).
    case leftOver = "left from an earlier run"
    /// The operator, from the station's own operator menu.
    case operatorMenu = "operator at the station"
}

/// Why who is active changed.
public enum StatusChangeReason: Hashable, Sendable {
    /// The person chose another account.
    case switched
    /// A sign-in finished; `isNew` when it created the account.
    case signedIn(isNew: Bool)
    /// An identity was attached to the active account.
    case linked(Identity)
    /// The person signed out; the identities stay available.
    case signedOut
    /// Another account was merged into the active one.
    case merged
    /// An identity was disconnected and its account went away.
    case disconnected(Identity)
    /// The provider revoked an identity of the active account (a credential
    /// check found it).
    case revoked(Identity)
    /// Another process changed the store.
    case external
}

/// Who a session acts as changed.
public struct UserStatusChanged: BusEvent, Hashable {
    public let session: SessionKey
    public let previous: ActiveAccount
    public let current: ActiveAccount
    public let reason: StatusChangeReason

    public init(session: SessionKey, previous: ActiveAccount, current: ActiveAccount, reason: StatusChangeReason) {
        self.session = session
        self.previous = previous
        self.current = current
        self.reason = reason
    }
}

/// Accounts or their identities were added, removed, renamed or merged.
public struct AccountsChanged: BusEvent, Hashable {
    /// The accounts whose identities or names changed (an account that
    /// went away may be missing: it is gone from the store).
    public let accounts: [AccountID]
    /// Any account may have changed: a change feed that caught up with a
    /// long backlog read the current state instead of every event.
    public let everything: Bool
    public init(accounts: [AccountID]) {
        self.accounts = accounts
        everything = false
    }

    /// Any account may have changed (see `everything`).
    public static let anyAccount = AccountsChanged(everything: ())

    private init(everything: Void) {
        accounts = []
        self.everything = true
    }
}

/// A credential check found an identity in a new state.
public struct IdentityStateChanged: BusEvent, Hashable {
    public let identity: Identity
    public let previous: CredentialState
    public let current: CredentialState
    public init(identity: Identity, previous: CredentialState, current: CredentialState) {
        self.identity = identity
        self.previous = previous
        self.current = current
    }
}

/// A sign-in moved to a new phase.
public struct SignInProgress: BusEvent, Hashable {
    /// The phases of a device-flow sign-in.
    public enum Phase: Hashable, Sendable {
        case requestingCode
        case waitingForApproval(userCode: String, verificationURI: String, expiresInSeconds: Int)
        case polling(attempt: Int)
        case slowedDown(intervalSeconds: Int)
        case finished(SignInOutcome)
    }

    public let provider: ProviderID
    public let phase: Phase
    public init(provider: ProviderID, phase: Phase) {
        self.provider = provider
        self.phase = phase
    }
}

/// The store's server went away or came back (a shared store only). While
/// it is away, a chooser says so and refuses to act; once it is back, what
/// other stations changed meanwhile arrives as their usual events.
public struct StoreReachabilityChanged: BusEvent, Hashable {
    /// Whether the store can be reached now.
    public let online: Bool
    /// What went wrong, naming the server (never a password); empty when online.
    public let detail: String
    public init(online: Bool, detail: String = "") {
        self.online = online
        self.detail = detail
    }
}
