import SwitchboardCore

/// What `switch` says on standard error when the account it switched to
/// can do nothing until someone signs in again (`Account.needsSignInAgain`):
/// which identities were revoked, and the command that brings each back.
/// The switch itself stands; standard output and the exit status are a
/// switch's as ever.
enum RevokedWarning {
    /// The warning's lines for `active`; none when it needs no sign-in again.
    static func lines(for active: ActiveAccount, session: SessionKey, sessionNamed: Bool) -> [String] {
        guard let account = active.account, account.needsSignInAgain else { return [] }
        let revoked = account.revokedIdentities
        let named = revoked.map { "\(account.label(of: $0.identity)) (\($0.identity))".displaySafe }.joined(separator: ", ")
        let session = sessionNamed ? " --session \(shellQuoted(session.rawValue))" : ""
        var lines = ["switchboard: warning: every identity of \(account.name.displaySafe) was revoked (\(named)); nothing works for it until you sign in again:"]
        for provider in Set(revoked.map(\.provider)).sorted() {
            let command = provider.rawValue.contains("://")
                ? "switchboard sign-in --issuer \(shellQuoted(provider.rawValue)) --client-id ID\(session)"
                : "switchboard sign-in \(shellQuoted(provider.rawValue))\(session)"
            lines.append("  " + command.displaySafe)
        }
        return lines
    }

    /// Writes the warning for `active` to standard error, if it has one.
    static func warn(_ active: ActiveAccount, session: SessionKey, sessionNamed: Bool, io: CommandIO) {
        for line in lines(for: active, session: session, sessionNamed: sessionNamed) { io.stderr.write(line + "\n") }
    }

    /// `text` as one shell word: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "._/:@%+=-".unicodeScalars.contains(scalar)
        }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
