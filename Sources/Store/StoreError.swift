import Foundation
import SwitchboardCore

/// Everything the store can refuse or fail at, each with a message that
/// names the file, account or identity involved.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is a database, but not Switchboard's.
    case notSwitchboard(path: String)
    /// The file was written by a newer Switchboard (unknown migrations).
    case newerSchema(path: String, unknown: [String])
    /// The file is damaged or not a database at all.
    case corrupt(path: String, detail: String)
    /// The file or its folder cannot be created, opened or written; or the
    /// server (named as `path`) refused the connection or a statement.
    case unavailable(path: String, detail: String)
    /// The store named is not one that can be used (a URL that is not
    /// PostgreSQL's, a password on the command line, two stores named);
    /// the message says which.
    case badLocation(String)
    /// The store's server cannot be reached (refused, gone, timed out);
    /// `server` names it without a password.
    case offline(server: String, detail: String)
    /// No account matches.
    case accountNotFound(String)
    /// Several accounts match; the candidates are listed.
    case ambiguousAccount(String, candidates: [String])
    /// No identity matches.
    case identityNotFound(String)
    /// The situation changed since a conflict was shown; show it again.
    case conflictChanged(Identity)
    /// The authenticator refused to merge.
    case mergeRefused([ProviderID])
    /// The account to merge away has a PIN (named), which the merge would lose.
    case mergeOfProtected(String)
    /// A PIN is set (named by the first value) and none was given.
    case pinRequired(String)
    /// The PIN given was wrong; when the next try may be made, if it must wait.
    case wrongPIN(String, retryAt: Date?)
    /// Too many wrong PINs: no try is looked at until `until`.
    case pinLockedOut(String, until: Date)
    /// The PIN an operation needs was never set.
    case pinNotSet(String)
    /// A new PIN breaks the rules; the message names the field.
    case badPIN(String)
    /// The session named is a terminal's own, which only that terminal changes.
    case terminalSession(String)
    /// A station's name that cannot be one; the message says why.
    case badStation(String)
    /// The station, or the role asked for it, has a role already (named).
    case stationTaken(String)
    /// No station of that name has a role of its own.
    case stationNotFound(String)
    /// The person took it back (Esc) before anything was changed.
    case cancelled

    public var description: String {
        switch self {
        case .notSwitchboard(let path) where path.hasPrefix("postgresql://"):
            "\(path): the schema holds tables that are not Switchboard's; nothing was changed. Give Switchboard a database (or a schema, with options=-csearch_path=NAME in the URL) of its own."
        case .notSwitchboard(let path):
            "\(path): not a Switchboard database (it belongs to something else); nothing was changed. Use --database to pick another file."
        case .newerSchema(let path, let unknown):
            "\(path): written by a newer Switchboard (unknown migrations: \(unknown.joined(separator: ", "))); upgrade Switchboard. Nothing was changed."
        case .badLocation(let message):
            message
        case .offline(let server, let detail):
            "\(server): the store's server cannot be reached" + (detail.isEmpty ? "" : " (\(detail))") + "; nothing was changed"
        case .corrupt(let path, let detail):
            "\(path): the database is damaged or not a database (\(detail)); nothing was changed. Move it aside to start afresh."
        case .unavailable(let path, let detail):
            "\(path): \(detail)"
        case .accountNotFound(let query):
            "no account matches \(String(reflecting: query)); `switchboard accounts` lists them"
        case .ambiguousAccount(let query, let candidates):
            "\(String(reflecting: query)) matches several accounts (\(candidates.joined(separator: ", "))); use the account id"
        case .identityNotFound(let query):
            "no identity matches \(String(reflecting: query)); give it as provider:subject (`switchboard accounts -v` lists each identity's)"
        case .conflictChanged(let identity):
            "the accounts changed while the conflict over \(identity) was open; sign in again"
        case .mergeRefused(let providers):
            AuthError.mergeRefused(providers).description
        case .mergeOfProtected(let what):
            "the other account has a PIN (\(what)), which merging it away would lose: switch to it instead, or clear its PIN first (switchboard pin clear)"
        case .pinRequired(let what):
            "\(what) is needed"
        case .wrongPIN(let what, let retryAt):
            "that is not \(what)" + (retryAt.map { "; after so many wrong tries the next may be made in \(Self.wait(until: $0))" } ?? "")
        case .pinLockedOut(let what, let until):
            "too many wrong tries at \(what); try again in \(Self.wait(until: until))"
        case .pinNotSet(let what):
            "\(what) is not set"
        case .badPIN(let message):
            message
        case .badStation(let message):
            message
        case .stationTaken(let message):
            message
        case .cancelled:
            "cancelled before anything was changed"
        case .stationNotFound(let name):
            "no station \(String(reflecting: name).displaySafe) has a role of its own; `switchboard fleet roles` lists them"
        case .terminalSession(let name):
            "session \(name.displaySafe) is a terminal's own: only that terminal can change who it acts as (a session named from elsewhere never reaches it)"
        }
    }

    /// "1 h 2 min", "45 s": how long from now until `date`.
    public static func wait(until date: Date, now: Date = Date()) -> String {
        let seconds = max(1, Int((date.timeIntervalSince(now)).rounded(.up)))
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds / 60 % 60) min"
    }
}
