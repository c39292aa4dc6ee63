import ChooserUI
import CursesBackend
import DeviceFlow
import Foundation
import Store
import SwitchboardApp
import SwitchboardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A station's hand-off command: run on the terminal for the person chosen,
/// in a process group of its own that has the terminal's foreground (so
/// Ctrl-C and Ctrl-Z are its own), until it exits or the terminal has had
/// no input for `idleLimit` seconds. Then, and when the station stops, the
/// group is sent SIGHUP, and SIGKILL `grace` seconds later if it is still
/// there. A stopped command is continued: nobody is left at a stopped job.
struct HandOffCommand: Sendable {
    let arguments: [String]
    /// Seconds without input before the command is ended; input is the
    /// terminal's last read, as `w` shows it (to within 8 seconds).
    let idleLimit: Double
    /// Seconds between SIGHUP and SIGKILL.
    var grace: Double = 5

    /// How the command ended.
    enum Ending: Equatable {
        /// It exited, or a signal not of ours ended it: the status as a shell says it.
        case exited(Int32)
        /// It was ended for the idle limit.
        case idle
        /// It was ended because the station stops.
        case stopped
        /// It could not be started.
        case cannotRun(String)
    }

    /// Runs the command with exactly `environment` on `terminal` (which the
    /// caller has handed over) and returns once it is gone and the terminal's
    /// foreground is this process's again.
    func run(environment: [String: String], terminal: Int32) async -> Ending {
        // A terminal that is not this process's controlling one (setsid) has no foreground to give.
        let jobControl = tcgetpgrp(terminal) == getpgrp()
        let defaults = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH, SIGCONT, SIGALRM, SIGUSR1, SIGUSR2]
        let pid: pid_t
        switch spawnChild(arguments, environment: environment, defaultSignals: defaults, ownProcessGroup: true) {
        case .success(let spawned): pid = spawned
        case .failure(let failure): return .cannotRun(failure.description)
        }
        // Should it read before this, it stops (SIGTTIN) and is continued once it has the foreground.
        if jobControl { tcsetpgrp(terminal, pid) }
        let job = Job(group: pid)
        let supervisor = Task.detached { await job.supervise(idleLimit: idleLimit, grace: grace, terminal: terminal) }
        let status = await withTaskCancellationHandler {
            await job.exitStatus()
        } onCancel: {
            job.hangUp(.stopped)
        }
        supervisor.cancel()
        if jobControl { Self.takeForeground(terminal) }
        // What it left running in its group goes too.
        job.endStragglers(grace: grace)
        return job.reason ?? .exited(shellStatus(status))
    }

    /// Makes this process's group the terminal's foreground again; it is
    /// in the background then, so SIGTTOU is ignored meanwhile.
    private static func takeForeground(_ terminal: Int32) {
        var ignore = sigaction(), old = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGTTOU, &ignore, &old)
        tcsetpgrp(terminal, getpgrp())
        sigaction(SIGTTOU, &old, nil)
    }
}

/// A running command's process group: its exit, and the signals sent to it.
private final class Job: Sendable {
    let group: pid_t
    private let state = Mutex<(hungUpAt: Double?, reason: HandOffCommand.Ending?)>((nil, nil))

    init(group: pid_t) { self.group = group }

    /// Why this program ended it, if it did.
    var reason: HandOffCommand.Ending? { state.withLock { $0.reason } }

    /// The leader's wait status, waited for on a thread of its own (waitpid blocks).
    func exitStatus() async -> Int32 {
        let group = group
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: waitForExit(group, continuesStopped: true)) }
        }
    }

    /// Sends SIGHUP (and SIGCONT, should it be stopped) once, for `reason`.
    func hangUp(_ reason: HandOffCommand.Ending) {
        let first = state.withLock { state in
            guard state.hungUpAt == nil else { return false }
            state = (Date().timeIntervalSince1970, reason)
            return true
        }
        guard first else { return }
        kill(-group, SIGHUP)
        kill(-group, SIGCONT)
    }

    /// Once a second: ends the command when the terminal has been idle for
    /// `idleLimit`, and kills it `grace` seconds after it was hung up.
    func supervise(idleLimit: Double, grace: Double, terminal: Int32) async {
        let started = Date().timeIntervalSince1970
        while !Task.isCancelled {
            let now = Date().timeIntervalSince1970
            if let hungUpAt = state.withLock({ $0.hungUpAt }) {
                if now >= hungUpAt + grace { kill(-group, SIGKILL) }
            } else if now - max(started, Self.lastInput(terminal)) >= idleLimit {
                hangUp(.idle)
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// After the leader is gone: SIGHUP to what is left of the group, and
    /// SIGKILL `grace` seconds later to what is still there.
    func endStragglers(grace: Double) {
        let group = group
        guard kill(-group, 0) == 0 else { return }
        kill(-group, SIGHUP)
        kill(-group, SIGCONT)
        Task.detached {
            try? await Task.sleep(for: .seconds(grace))
            if kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
    }

    /// When the terminal last had input read from it (its access time).
    private static func lastInput(_ terminal: Int32) -> Double {
        var info = stat()
        guard fstat(terminal, &info) == 0 else { return 0 }
        return Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
    }
}

/// What the chooser calls when a person is chosen at a station with a
/// hand-off command: their environment, the terminal handed over, the
/// command, the terminal back.
struct StationHandOff: Sendable {
    let command: HandOffCommand
    let session: SessionKey
    let database: AppDatabase
    let configuration: ProviderConfiguration
    let tokens: AccessTokens

    /// Runs the command as `id`; returns what the next person should be told.
    @MainActor
    func run(_ id: AccountID, terminal: CursesTerminal) async -> (text: String, kind: Toast.Kind)? {
        let environment: [String: String]
        do {
            environment = try await self.environment(of: id)
        } catch {
            return ("Could not start the station's command: \(error)".displaySafe, .error)
        }
        terminal.handOver()
        let ending = await command.run(environment: environment, terminal: terminal.input)
        terminal.takeBack()
        switch ending {
        case .exited(0), .stopped: return nil
        case .exited(let status): return ("The station's command ended with status \(status).", .warning)
        case .idle: return ("The station's command was ended after \(Int(command.idleLimit)) s without input.", .info)
        case .cannotRun(let problem): return ("The station's command did not start: \(problem).", .error)
        }
    }

    /// What `switchboard exec` gives: the account's variables and a fresh
    /// access token of each of its identities, over this process's environment.
    private func environment(of id: AccountID) async throws -> [String: String] {
        guard let account = try database.account(id) else { throw StoreError.accountNotFound("\(id.rawValue)") }
        var variables = AccountEnvironment(account: account, session: session)
        var fresh: [(provider: ProviderID, token: String)] = []
        for identity in account.identities.map(\.identity) {
            fresh.append((identity.provider, try await tokens.token(for: identity, minValid: 60).tokens.accessToken))
        }
        variables.addTokens(fresh, configuration: configuration)
        return variables.applied(to: ProcessInfo.processInfo.environment)
    }
}
