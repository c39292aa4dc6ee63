import ChooserUI
import Services
import DeviceFlow
import Foundation
import ProcessKit
import Store
import SwitchboardCore
import TerminalUI

/// The I/O the chooser needs, each piece swappable in tests: the store,
/// the bus, providers over HTTP, the clock, the clipboard, the browser and
/// the theme files.
public struct ChooserEnvironment: Sendable {
    public var database: AppDatabase
    public var bus: NotificationBus
    public var providers: ProviderDirectory
    public var clock: any FlowClock
    /// Puts text on the terminal's clipboard (OSC 52).
    public var copy: @MainActor @Sendable (String) -> Void
    /// Opens a URL in the browser.
    public var open: @Sendable (String) throws -> Void
    /// The theme after the one named, and a warning when its file was bad.
    public var nextTheme: @Sendable (String) -> (Theme, String?)
    public var now: @Sendable () -> Moment
    /// Runs a station's reboot or power-off command (a program and its
    /// arguments, no shell) and tells how it went; `StationCommand.run` does
    /// it for real. The default refuses, so nothing runs unless asked for.
    public var runCommand: @Sendable ([String]) async -> CommandOutcome
    /// A station's hand-off: runs its command as the account, with the
    /// terminal, until it ends; returns what the next person should be
    /// told, if anything. Nil when the station has no command.
    public var handOff: HandOff?

    /// See `handOff`.
    public typealias HandOff = @MainActor @Sendable (AccountID) async -> (text: String, kind: Toast.Kind)?

    /// What `demo tour` asks of the world; nil unless on tour.
    public var tour: TourDriver?
    /// Seconds the store has to answer a call before the chooser counts it
    /// offline (`[store] timeout`).
    public var storeDeadline: Double
    /// How long a frame, and keys typed, wait for a store call's answer
    /// (`StoreLink.frameHold`; tests that must not depend on the machine's speed give more).
    public var frameHold = StoreLink.frameHold
    /// Told when the store answers again after the chooser found it
    /// offline: the change feed tries to listen again at once.
    public var storeReturned: @Sendable () -> Void

    public init(
        database: AppDatabase, bus: NotificationBus, providers: ProviderDirectory, clock: any FlowClock = SystemFlowClock(),
        copy: @escaping @MainActor @Sendable (String) -> Void, open: @escaping @Sendable (String) throws -> Void,
        nextTheme: @escaping @Sendable (String) -> (Theme, String?), now: @escaping @Sendable () -> Moment = { Moment.now() },
        runCommand: @escaping @Sendable ([String]) async -> CommandOutcome = { _ in .failed("running commands is not set up") },
        handOff: HandOff? = nil, tour: TourDriver? = nil, storeDeadline: Double = StoreDeadline.standard,
        storeReturned: @escaping @Sendable () -> Void = {}
    ) {
        self.storeDeadline = storeDeadline
        self.storeReturned = storeReturned
        self.handOff = handOff
        self.tour = tour
        self.database = database
        self.bus = bus
        self.providers = providers
        self.clock = clock
        self.copy = copy
        self.open = open
        self.nextTheme = nextTheme
        self.now = now
        self.runCommand = runCommand
    }

    /// Opens `url` with `xdg-open` (found on `PATH`), its output
    /// discarded, in a process group of its own; only on request. Throws
    /// when it cannot be started (no `xdg-open`, say), in words the
    /// chooser can show.
    public static func xdgOpen(_ url: String) throws {
        try xdgOpen(url, environment: ProcessInfo.processInfo.environment)
    }

    /// `xdgOpen` with exactly `environment` (whose `PATH` finds `xdg-open`).
    /// Where no browser can be opened (no display, and no `BROWSER` named
    /// for a terminal one: a console, an ssh session) it says so at once,
    /// rather than starting an `xdg-open` that fails unseen.
    static func xdgOpen(_ url: String, environment: [String: String]) throws {
        guard ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"].contains(where: { !(environment[$0] ?? "").isEmpty }) else {
            throw ProcessError("no browser can be opened here: no display, and BROWSER names none", code: ENXIO)
        }
        guard let program = StationCommand.locate("xdg-open", path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw ProcessError("no xdg-open on PATH", code: ENOENT)
        }
        try ChildProcess.startUnattended(program, [url], environment: environment)
    }
}

/// How the tour's requests are carried out: the demo provider's approval
/// and settings API, and a new empty store for each round.
public struct TourDriver: Sendable {
    /// Carries out a request to the demo provider; nil when done, else why not.
    public var provider: @Sendable (TourRequest) async -> String?
    /// An empty store, the one the chooser shows from then on.
    public var freshStore: @MainActor @Sendable () throws -> AppDatabase

    public init(provider: @escaping @Sendable (TourRequest) async -> String?, freshStore: @escaping @MainActor @Sendable () throws -> AppDatabase) {
        self.provider = provider
        self.freshStore = freshStore
    }
}
