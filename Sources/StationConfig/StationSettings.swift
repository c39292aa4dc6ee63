import SwitchboardCore
import TerminalUI

// A station's settings as plain values: what `Configuration` reads from
// `[kiosk]` and the chooser runs by, below both so that reading the file
// needs nothing of the chooser.

/// How a station runs the chooser locked (`switchboard kiosk`): the
/// `[kiosk]` table of config.toml, which the `Configuration` module reads
/// and `ChooserUI` runs by.
public struct StationSettings: Hashable, Sendable {
    /// Seconds without input before the countdown to Anonymous starts.
    public var idleTimeout: Double = 120
    /// Seconds the countdown shows before this session signs out.
    public var countdown: Double = 15
    /// A line for the top bar; nil for the program's name.
    public var greeting: String?
    /// The providers people may sign in with; nil for every configured one.
    public var providers: [ProviderID]?
    /// The key that asks for the operator PIN (`operator_key`, F12 unless set).
    public var operatorKey: Key = .function(12)
    /// Whether the list starts on the last person active in this session (`remember_last`).
    public var rememberLast = false
    /// The operator menu's reboot and power-off commands (`power`), when configured.
    public var power = StationPower()
    /// The hand-off command: run on the terminal as the person chosen,
    /// with no shell in between; nil to stay in the chooser.
    public var command: [String]?

    public init(
        idleTimeout: Double = 120, countdown: Double = 15, greeting: String? = nil, providers: [ProviderID]? = nil,
        operatorKey: Key = .function(12), rememberLast: Bool = false, power: StationPower = StationPower(), command: [String]? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.countdown = countdown
        self.greeting = greeting
        self.providers = providers
        self.operatorKey = operatorKey
        self.rememberLast = rememberLast
        self.power = power
        self.command = command
    }
}

/// The operator menu's commands (`[kiosk] power`), each run without a shell.
public struct StationPower: Hashable, Sendable {
    /// `reboot`: the program and its arguments, e.g. `["systemctl", "reboot"]`.
    public var reboot: [String]?
    /// `poweroff`: the program and its arguments.
    public var powerOff: [String]?

    /// Commands for the operator menu; nil leaves an entry out.
    public init(reboot: [String]? = nil, powerOff: [String]? = nil) {
        self.reboot = reboot
        self.powerOff = powerOff
    }
}
