import DeviceFlow
import Foundation
import QRCode
import Store
import Services
import SwitchboardCore

/// What `sign-in` prints: for people, the code, URL, QR code, a live
/// countdown and the outcome; with `--json`, one JSON object per line.
struct SignInOutput: Sendable {
    let json: Bool
    let io: CommandIO
    /// The provider is a demo provider on this machine's loopback: not reaching it is no network's fault.
    var localDemo = false
    /// A countdown and colours only on a terminal (colours only without NO_COLOR).
    var interactive: Bool { io.stdoutIsTerminal }
    var colour: Bool { io.stdoutIsTerminal && io.environment["NO_COLOR"] == nil }

    func note(_ text: String) {
        io.stderr.write("\(text)\n")
    }

    /// One exchange of `--trace`, on standard error; on a terminal the
    /// countdown's line is cleared first, and drawn again at its next tick.
    func trace(_ entry: FlowTraceEntry) {
        if interactive && !json { io.stdout.write("\r\u{1B}[2K") }
        io.stderr.write(entry.lines.map { "trace: " + $0.displaySafe }.joined(separator: "\n") + "\n")
    }

    func code(_ authorization: DeviceAuthorization, provider: ResolvedProvider) {
        if json {
            io.printJSON(CodeEvent(
                user_code: authorization.userCode, verification_uri: authorization.verificationURI.absoluteString,
                verification_uri_complete: authorization.verificationURIComplete?.absoluteString,
                expires_in: authorization.expiresIn, interval: authorization.interval))
            return
        }
        // The QR code first, the URL and code after it: on a short terminal, what scrolls away is the QR code's top.
        var lines = ["Sign in with \(provider.settings.name.displaySafe)", ""]
        if let matrix = try? QREncoder.encode(authorization.qrPayload, errorCorrection: .low) {
            lines += qrLines(matrix).map { "  " + $0 }
            lines += ["  Scan the code: it opens \(authorization.qrPayload.displaySafe)", ""]
        }
        lines += [
            "  Open  \(authorization.verificationURI.absoluteString.displaySafe)",
            "  Code  \(bold(authorization.userCode.displaySafe))", "",
        ]
        if provider.settings.kind == .demo {
            let server = provider.settings.issuer?.absoluteString ?? ""
            lines += ["  Demo: approve on that page, or in another terminal run",
                      "    " + DemoApproval.command(userCode: authorization.userCode, server: server), ""]
        }
        io.print(lines.joined(separator: "\n"))
    }

    /// Half blocks; black on white when the terminal takes colours, so the
    /// code scans on dark and light themes alike.
    private func qrLines(_ matrix: QRMatrix) -> [String] {
        let lines = QRRenderer.halfBlocks(matrix, quietZone: 2)
        return colour ? lines.map { "\u{1B}[30;47m" + $0 + "\u{1B}[0m" } : lines
    }

    private func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

    /// A once-a-second countdown line on a terminal; nothing otherwise.
    func startCountdown(until deadline: Date) -> Task<Void, Never> {
        guard interactive && !json else { return Task {} }
        return Task {
            let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
            var tick = 0
            while !Task.isCancelled {
                let left = Countdown.text(deadline.timeIntervalSinceNow)
                let line = "  \(spinner[tick % spinner.count]) Waiting for approval… \(left) left  (Ctrl-C cancels)"
                io.stdout.write("\r\u{1B}[2K\(line)")
                tick += 1
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    func endCountdown() {
        if interactive && !json { io.stdout.write("\r\u{1B}[2K") }
    }

    func poll(_ event: PollEvent) {
        guard !json else { return }
        switch event {
        case .polling: break
        case .slowedDown(let interval): note("  The provider asked to slow down; polling every \(interval) s.")
        case .retrying(let seconds, let reason): note("  \(reason.displaySafe); trying again in \(seconds) s.")
        }
    }

    /// Asks merge/switch/cancel on a terminal; nil without one.
    func askConflict(_ pending: PendingConflict, database: AppDatabase) -> ConflictChoice? {
        guard !json, io.stdinIsTerminal else { return nil }
        let (ownerName, activeName) = Account.distinctNames(
            ((try? database.account(pending.conflict.owner))?.name ?? "another account", pending.conflict.owner),
            ((try? database.account(pending.conflict.active))?.name ?? "the active account", pending.conflict.active))
        let owner = ownerName.displaySafe, active = activeName.displaySafe
        io.print("\(pending.identity.identity.description.displaySafe) belongs to \(owner), but \(active) is active.")
        if let note = pending.conflict.mergeNote { io.print(note) }
        let keys = pending.conflict.choices.map { choice in
            switch choice {
            case .merge: "[m]erge \(owner) into \(active)"
            case .switchAccount: "[s]witch to \(owner)"
            case .cancel: "[c]ancel"
            }
        }
        io.print(keys.joined(separator: ", ") + "? ", terminator: "")
        switch io.stdin.readLine(limit: 64)?.lowercased().first {
        case "m" where pending.conflict.canMerge: return .merge
        case "s": return .switchAccount
        default: return .cancel
        }
    }

    func resolved(_ pending: PendingConflict, choice: ConflictChoice, change: UserStatusChanged?, session: SessionKey) {
        guard !json else { return }
        switch choice {
        case .merge: io.print("Merged. \(describe(change?.current ?? .anonymous, in: session))")
        case .switchAccount: io.print("Switched. \(describe(change?.current ?? .anonymous, in: session))")
        case .cancel: io.print("Cancelled; nothing changed.")
        }
    }

    func outcome(_ report: SignInReport, conflict: (PendingConflict, ConflictChoice)?, session: SessionKey) {
        if json {
            io.printJSON(OutcomeEvent(report, conflict: conflict, session: session))
            return
        }
        if let (pending, choice) = conflict, choice == .cancel {
            let options = pending.conflict.choices.filter { $0 != .cancel }.map { "--on-conflict \($0.rawValue)" }
            io.print("\(pending.identity.identity.description.displaySafe) belongs to account \(pending.conflict.owner), not the active account \(pending.conflict.active). Nothing changed; to go on, sign in again with \(options.joined(separator: " or ")).")
            return
        }
        switch report.outcome {
        case .approved:
            let name = report.account?.name.displaySafe ?? "the account"
            if report.isNew { io.print("Welcome, \(name)! A new account was made and is active in session \(session).") }
            else if report.linked { io.print("Linked to \(name).") }
            else if conflict == nil { io.print("Signed in as \(name), active in session \(session).") }
            let matches = report.possibleMatches.filter { $0 != report.account?.id }
            // After a merge the matching account is this one: nothing to say.
            if !matches.isEmpty, conflict?.1 != .merge {
                let others = matches.map(\.description)
                let which = others.count == 1 ? "account \(others[0]) has" : "accounts \(others.joined(separator: ", ")) have"
                io.print("Note: \(which) the same verified email as this one. If \(others.count == 1 ? "it is" : "they are") you, link them: "
                    + "switch to \(others.count == 1 ? "it" : "one") (switchboard switch \(others[0])) and sign in again with --link, then merge.")
            }
        case .denied: io.print("Denied: the sign-in was refused at the provider. Nothing changed.")
        case .expired: io.print("The code expired before it was approved. Run the command again for a new one.")
        case .cancelled: io.print("Cancelled. Nothing changed.")
        case .offline(let detail) where localDemo:
            io.print("Could not reach the demo provider: \(detail.displaySafe). It runs on this machine, not the network: is another "
                + "program on its port? Start one with `switchboard demo serve` (--port for another), or run the command again.")
        case .offline(let detail): io.print("Could not reach the provider: \(detail.displaySafe). Check the network and try again.")
        case .providerError(let detail): io.print("The provider answered with an error: \(detail.displaySafe)")
        case .invalidAccount(let detail): io.print("The sign-in could not be used: \(detail.displaySafe)")
        case .noAccount: io.print("The provider has no account for you.")
        case .multipleAccounts: io.print("Several accounts answered; sign in again and pick one.")
        }
    }
}

/// `{"event":"code", ...}`, the first line of `sign-in --json`.
private struct CodeEvent: Encodable {
    let event = "code"
    let user_code: String
    let verification_uri: String
    @Null var verification_uri_complete: String?
    let expires_in: Int
    let interval: Int
}

/// `{"event":"outcome", "outcome", "isNew", "account", "error", ...}`, the last line.
private struct OutcomeEvent: Encodable {
    struct Failure: Encodable {
        let kind: String
        let message: String
    }

    let event = "outcome"
    let outcome: String
    let isNew: Bool
    let linked: Bool
    @Null var account: StatusJSON.Active?
    @Null var error: Failure?
    let session: String
    let possibleMatches: [Int64]
    @Null var conflict: ConflictJSON?

    /// `{"identity", "owner", "active", "canMerge", "choice"}`: the conflict met and how it was answered.
    struct ConflictJSON: Encodable {
        let identity: String
        let owner: Int64
        let active: Int64
        let canMerge: Bool
        let choice: String
    }

    init(_ report: SignInReport, conflict: (PendingConflict, ConflictChoice)?, session: SessionKey) {
        self.conflict = conflict.map { pending, choice in
            ConflictJSON(identity: pending.identity.identity.description, owner: pending.conflict.owner.rawValue,
                         active: pending.conflict.active.rawValue, canMerge: pending.conflict.canMerge, choice: choice.rawValue)
        }
        switch report.outcome {
        case .approved, .denied, .expired, .cancelled: outcome = report.outcome.name
        default: outcome = "error"
        }
        isNew = report.isNew
        linked = report.linked
        account = report.account.map { StatusJSON.Active(id: $0.id.rawValue, name: $0.name, identities: $0.identities.map(IdentityJSON.init)) }
        switch report.outcome {
        case .offline(let detail), .providerError(let detail), .invalidAccount(let detail):
            error = Failure(kind: report.outcome.name, message: detail)
        case .noAccount, .multipleAccounts:
            error = Failure(kind: report.outcome.name, message: report.outcome.name)
        default:
            error = nil
        }
        self.session = session.rawValue
        possibleMatches = report.possibleMatches.map(\.rawValue)
    }
}
