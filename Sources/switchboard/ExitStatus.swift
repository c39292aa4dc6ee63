import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// The exit statuses of `switchboard`, one per kind of outcome, so scripts
/// can tell them apart. Listed in `switchboard --help` and README.md.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case failure = 1
    case notFound = 2
    case ambiguous = 3
    case conflict = 4
    case store = 5
    case configuration = 6
    case pinRequired = 7
    case wrongPIN = 8
    case pinLockedOut = 9
    case denied = 10
    case expired = 11
    case cancelled = 12
    case providerError = 13
    case offline = 14
    case invalidAccount = 15
    case noActiveAccount = 16
    case revoked = 17
    case storeOffline = 18
    case usage = 64

    var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "unexpected failure"
        case .notFound: "no such account or identity"
        case .ambiguous: "the name matches several accounts, or the account has identities at several providers and none was named"
        case .conflict: "refused because of a conflict (e.g. merge not allowed), or no operator PIN is set"
        case .store: "the database cannot be used (not Switchboard's, newer, damaged, unwritable)"
        case .configuration: "the configuration file has an error, or a provider is not configured"
        case .pinRequired: "the account has a PIN and none could be asked for (not a terminal; use --pin-stdin)"
        case .wrongPIN: "wrong PIN (the try was counted)"
        case .pinLockedOut: "too many wrong PINs: wait, then try again (the message says how long)"
        case .denied: "sign-in denied at the provider"
        case .expired: "the sign-in code expired"
        case .cancelled: "sign-in cancelled (Esc, Ctrl-C)"
        case .providerError: "the provider answered with an error"
        case .offline: "the provider could not be reached"
        case .invalidAccount: "the provider's answer could not be verified or used"
        case .noActiveAccount: "the session acts as nobody (no active account)"
        case .revoked: "the identity's tokens cannot be renewed: the provider refused the refresh (revoked), or none are stored; sign in again"
        case .storeOffline: "the store's server cannot be reached (the message names it); nothing was changed"
        case .usage: "bad arguments (also -c COMMAND, and a login shell given any: switchboard is no shell)"
        }
    }

    /// The list `--help` shows: codes right-aligned, each meaning wrapped
    /// under itself within 76 columns. ArgumentParser wraps the discussion
    /// again at its spaces, so the margins are no-break spaces, which it
    /// leaves alone (they show as spaces).
    static var documentation: String {
        "Exit statuses:\n" + allCases.map { status in
            let code = String(status.rawValue)
            let margin = String(repeating: "\u{A0}", count: 4 - code.count)
            return wrapped(status.meaning, first: margin + code + "\u{A0}\u{A0}", indent: String(repeating: "\u{A0}", count: 6), width: 76)
        }.joined(separator: "\n")
    }

    /// `text` after `first`, broken at spaces into lines of at most `width`
    /// characters, each after the first starting with `indent`.
    static func wrapped(_ text: String, first: String, indent: String, width: Int) -> String {
        var lines: [String] = [], line = first
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += (line.last == "\u{A0}" ? "" : " ") + word
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }

    init(_ error: StoreError) {
        switch error {
        case .accountNotFound, .identityNotFound, .stationNotFound: self = .notFound
        case .ambiguousAccount: self = .ambiguous
        case .conflictChanged, .mergeRefused, .mergeOfProtected, .pinNotSet, .terminalSession, .stationTaken: self = .conflict
        case .pinRequired: self = .pinRequired
        case .wrongPIN: self = .wrongPIN
        case .pinLockedOut: self = .pinLockedOut
        case .badPIN, .badStation: self = .usage
        case .notSwitchboard, .newerSchema, .corrupt, .unavailable: self = .store
        case .offline: self = .storeOffline
        case .cancelled: self = .cancelled
        case .badLocation: self = .configuration
        }
    }
}

extension ExitStatus {
    /// The status for how a sign-in ended.
    init(_ outcome: SignInOutcome) {
        switch outcome {
        case .approved: self = .success
        case .denied: self = .denied
        case .expired: self = .expired
        case .cancelled: self = .cancelled
        case .offline: self = .offline
        case .invalidAccount, .noAccount, .multipleAccounts: self = .invalidAccount
        case .providerError: self = .providerError
        }
    }
}
