/// What a person offers to act as an account that has a PIN: that
/// account's own PIN, or the operator PIN, which stands in for any
/// profile's. A wrong one is counted on the PIN it was offered as.
public enum PINProof: Hashable, Sendable {
    case account(String)
    case operatorPIN(String)
}
