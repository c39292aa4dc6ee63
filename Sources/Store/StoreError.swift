import SwitchboardCore

/// Everything the store can refuse or fail at, each with a message that
/// names the file, account or identity involved.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is a database, but not Switchboard's.
    case notSwitchboard(path: String)
    /// The file was written by a newer Switchboard (unknown migrations).
    case newerSchema(path: String, unknown: [String])
    /// The file is damaged or not a database at all.
    case corrupt(path: String, detail: String)
    /// The file or its folder cannot be created, opened or written.
    case unavailable(path: String, detail: String)
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

    public var description: String {
        switch self {
        case .notSwitchboard(let path):
            "\(path): not a Switchboard database (it belongs to something else); nothing was changed. Use --database to pick another file."
        case .newerSchema(let path, let unknown):
            "\(path): written by a newer Switchboard (unknown migrations: \(unknown.joined(separator: ", "))); upgrade Switchboard. Nothing was changed."
        case .corrupt(let path, let detail):
            "\(path): the database is damaged or not a database (\(detail)); nothing was changed. Move it aside to start afresh."
        case .unavailable(let path, let detail):
            "\(path): \(detail)"
        case .accountNotFound(let query):
            "no account matches \(String(reflecting: query)); `switchboard accounts` lists them"
        case .ambiguousAccount(let query, let candidates):
            "\(String(reflecting: query)) matches several accounts (\(candidates.joined(separator: ", "))); use the account id"
        case .identityNotFound(let query):
            "no identity matches \(String(reflecting: query)); give it as provider:subject (see `switchboard accounts`)"
        case .conflictChanged(let identity):
            "the accounts changed while the conflict over \(identity) was open; sign in again"
        case .mergeRefused(let providers):
            AuthError.mergeRefused(providers).description
        }
    }
}
