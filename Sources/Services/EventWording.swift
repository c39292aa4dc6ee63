import Store

/// An event of the log in words, as `switchboard log` prints it and the
/// operator's board shows it. Only the detail fields the rules write are
/// read, none of which is a secret: any other (a future kind's) is left out.
public enum EventWording {
    /// The detail fields shown.
    public static let shown: Set<String> = [
        "identity", "isNew", "conflict", "reason", "from", "change", "owner", "state", "previous", "accountRemoved", "given", "lockedUntil",
        "operator",
    ]

    /// Who: the account's name, else its id (an account since removed),
    /// else `nobody` (a session that acted as no one: ended, signed out).
    public static func who(_ entry: LogEntry) -> String {
        entry.accountName ?? entry.account.map { "account \($0)" } ?? "nobody"
    }

    /// What happened, in words.
    public static func what(_ entry: LogEntry) -> String {
        // Done to a station's session by a role that is not that station's (the operator's, from elsewhere): said.
        described(entry) + (entry.foreignOrigin.map { " (by role \($0))" } ?? "")
    }

    private static func described(_ entry: LogEntry) -> String {
        let detail = entry.detail.filter { shown.contains($0.key) }
        let identity = detail["identity"].map { " (\($0))" } ?? ""
        let byOperator = detail["operator"].map { " by the operator at \($0)" } ?? ""
        switch entry.kind {
        case "signIn": return "signed in\(identity)" + (detail["isNew"] == "true" ? ", new account" : "")
        case "link": return "linked\(identity)"
        case "switch": return "switched" + (detail["conflict"].map { " after a conflict over \($0)" } ?? "")
        case "signOut": return "signed out" + byOperator + (detail["reason"].map { " (\($0)\(detail["identity"].map { " \($0)" } ?? ""))" } ?? "")
        case "disconnect": return "disconnected\(identity)" + byOperator + (detail["accountRemoved"] == "true" ? ", account removed" : "")
        case "merge": return "merged" + (detail["from"].map { " \($0) into this account" } ?? "")
        case "ended": return "terminal closed, session ended"
        case "nameTaken": return "another machine started as this station and waits: two cannot share one name"
        case "wrongPIN": return "wrong \(detail["given"] ?? "PIN")" + (detail["lockedUntil"].map { ", locked out until \($0)" } ?? "")
        case "pin": return "PIN \(detail["change"] ?? "changed")" + (detail["owner"].map { " (\($0))" } ?? "") + byOperator
        case "check": return "credentials\(identity): \(detail["previous"] ?? "?") → \(detail["state"] ?? "?")"
        default:
            return ([entry.kind] + detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }
}
