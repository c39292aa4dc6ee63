/// How a sign-in ended. Every sign-in ends in exactly one of these, and each
/// has its own screen in the chooser and its own exit status on the command line.
public enum SignInOutcome: Hashable, Sendable {
    /// The person approved; the identity has been resolved to an account.
    case approved(AccountID, isNew: Bool)
    /// The person said no at the provider.
    case denied
    /// The code ran out before anyone approved it.
    case expired
    /// The person cancelled here; a flow is single-use.
    case cancelled
    /// The provider has no account for the person.
    case noAccount
    /// Several accounts could answer; the person has to pick.
    case multipleAccounts([Identity])
    /// The provider answered with an identity that cannot be used.
    case invalidAccount(String)
    /// The provider answered with an error.
    case providerError(String)
    /// The provider could not be reached.
    case offline(String)

    /// A short stable name, used in `--json` output and event logs.
    public var name: String {
        switch self {
        case .approved: "approved"
        case .denied: "denied"
        case .expired: "expired"
        case .cancelled: "cancelled"
        case .noAccount: "noAccount"
        case .multipleAccounts: "multipleAccounts"
        case .invalidAccount: "invalidAccount"
        case .providerError: "providerError"
        case .offline: "offline"
        }
    }
}
