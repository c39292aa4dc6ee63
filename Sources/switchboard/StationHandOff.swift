import ChooserUI
import CursesBackend
import DeviceFlow
import Foundation
import ProcessKit
import Store
import Services
import ChooserApp
import SwitchboardCore
import ToolCredentials

/// What the chooser calls when a person is chosen at a station with a
/// hand-off command: their environment, the terminal lent, the command
/// run by ProcessKit's `Supervisor`, the terminal back.
struct StationHandOff: Sendable {
    /// The command and its arguments.
    let command: [String]
    /// Seconds without input before it is ended.
    let idleLimit: Double
    /// Seconds between the hang-up of an idle command and its kill.
    let grace: Double
    let session: SessionKey
    let database: AppDatabase
    let configuration: ProviderConfiguration
    /// `[git]`: whose name and email the command's commits carry.
    let git: GitSettings
    let tokens: AccessTokens

    /// The seconds a command that ignores the hang-up is given before it is
    /// killed: 5 (`SWITCHBOARD_HAND_OFF_GRACE_SECONDS`, for tests, sets
    /// another whole number of seconds, 1 to 60).
    static func grace(_ environment: [String: String]) -> Double {
        Double(environment["SWITCHBOARD_HAND_OFF_GRACE_SECONDS"].flatMap { Int($0) }.flatMap { (1...60).contains($0) ? $0 : nil } ?? 5)
    }

    /// Runs the command as `id`; returns what the next person should be
    /// told. Cancelled (the station stops) before it starts, it does not.
    @MainActor
    func run(_ id: AccountID, terminal: CursesTerminal) async -> (text: String, kind: Toast.Kind)? {
        let environment: [String: String]
        do {
            guard let account = try database.account(id) else { throw StoreError.accountNotFound("\(id.rawValue)") }
            environment = AccountEnvironment.forCommand(
                account: account, session: session, configuration: configuration, git: git,
                tokens: try await tokens.accessTokens(of: account.identities.map(\.identity), minValid: TokenOptions.defaultMinValid),
                base: ProcessInfo.processInfo.environment)
        } catch {
            // Ended before it began (the station stops, or its person left): nothing to tell.
            if Task.isCancelled { return nil }
            return ("Could not start the station's command: \(error)".displaySafe, .error)
        }
        guard !Task.isCancelled else { return nil }
        terminal.handOver()
        var supervisor = Supervisor(terminal: terminal.input, idleLimit: idleLimit)
        supervisor.grace = grace
        let ending = await supervisor.run(command, environment: environment) { CursesTerminal.setLentGroup($0) }
        terminal.takeBack()
        switch ending {
        case .exited(0), .stopped: return nil
        case .exited(let status): return ("The station's command ended with status \(status).", .warning)
        case .idle: return ("The station's command was ended after \(Int(idleLimit)) s without input.", .info)
        case .cannotRun(let problem): return ("The station's command did not start: \(cannotRun(command, problem)).", .error)
        }
    }
}
