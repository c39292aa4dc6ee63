import ScreenKit
import BoardUI
import ArgumentParser
import ChooserApp
import ChooserUI
import CursesBackend
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore
import TerminalUI

/// `switchboard fleet` on a terminal: the operator's board, full screen,
/// live through the store's change watch, until the operator quits.
@MainActor
enum FleetBoard {
    /// Opens the board on this terminal, the invocation's own.
    static func open(_ context: CommandContext, theme: String?) async throws {
        context.io.terminal = { TerminalIdentity.on(STDIN_FILENO) }
        let io = context.io
        // The operator's own session: where their actions are logged from.
        let session = try context.sessionKey()
        let database: AppDatabase
        do { database = try context.openDatabase(.readOnlyIfUnwritable, waitForServer: true) } catch {
            throw io.fail(error.description, ExitStatus(error))
        }
        let configuration = try context.configuration()
        let selection = ThemeSelection.chooser(flag: theme, configured: configuration.theme, environment: io.environment)
        let providers = ProviderDirectory(configuration: configuration.providers, transport: URLSessionTransport(timeout: 15))
        let program = TerminalProgram()
        let terminal = program.terminal
        var state = BoardState(
            size: terminal.size, now: Moment.now(), theme: selection.theme.reduced(toColors: terminal.colors),
            clock: LocalClock { TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: $0.secondsSince1970)) },
            operatorSession: session.rawValue, idleLimit: (configuration.kiosk.idleTimeout, configuration.kiosk.countdown))
        if let warning = selection.warning { state.say(warning, isError: true) }
        let loop = BoardLoop(
            state: state,
            environment: BoardEnvironment(
                database: database, providers: providers, nextTheme: program.nextTheme, storeDeadline: configuration.store.deadline),
            render: { terminal.draw(BoardScreen.draw($0)) })
        let signal = await program.run(send: { loop.send(.input($0)) }, terminate: { loop.send(.terminate) }, run: loop.run)
        await providers.shutdown()
        if let signal { throw ExitCode(128 + signal) }
    }
}
