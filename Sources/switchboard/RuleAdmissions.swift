import Foundation
import Glibc
import SwitchboardCore

/// The accounts with a PIN that a directory rule named and whose PIN was
/// given in a terminal: asked once per terminal, as the rule is in force
/// for every command (and git push) run there. Remembered in the runtime
/// folder (`$XDG_RUNTIME_DIR/switchboard/admitted`, the person's own,
/// emptied at logout) by the terminal's lifetime, so a terminal opened
/// later under the same name asks again; only on a store of this machine,
/// and never where there is no runtime folder or no terminal's lifetime.
struct RuleAdmissions: Sendable {
    let path: String

    /// The person's record, when their environment has a runtime folder.
    init?(environment: [String: String]) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        path = runtime + "/switchboard/admitted"
    }

    /// Whether `account`'s PIN was given in the terminal `session` belongs to.
    func admitted(_ account: AccountID, in session: SessionKey) -> Bool {
        guard let key = Self.key(account, session) else { return false }
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.contains { $0 == key }
    }

    /// Remembers that `account`'s PIN was given in `session`'s terminal; lines
    /// of terminals that are closed are dropped. Best effort: not remembered,
    /// the PIN is asked again.
    func admit(_ account: AccountID, in session: SessionKey) {
        guard let key = Self.key(account, session) else { return }
        let kept = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { line in
            line != key && line.split(separator: " ").first.map { TerminalIdentity.isOpen(String($0)) != false } ?? false
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
        else { return }
        let text = (kept.map(String.init) + [key]).joined(separator: "\n") + "\n"
        let temporary = path + ".\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// `LIFETIME ACCOUNT`: only a terminal's session has a lifetime.
    private static func key(_ account: AccountID, _ session: SessionKey) -> String? {
        guard let lifetime = session.lifetime, !lifetime.contains(" "), !lifetime.contains("\n") else { return nil }
        return "\(lifetime) \(account.rawValue)"
    }
}
