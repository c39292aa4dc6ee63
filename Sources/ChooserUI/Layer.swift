import ScreenKit
import SwitchboardCore

/// A program built around the chooser (a station, the tour): its own state,
/// actions, effects and dialogs, holding the chooser's state and calling
/// its reducer for the chooser's part, as a parent reducer nests a child.
/// The chooser itself is the layer of nothing. The chooser knows no layer:
/// what one asks of its screen and keys it says through `AppState.surround`.
public protocol ChooserLayer: Sendable {
    /// The layer's actions: the chooser's among them.
    associatedtype LayerAction: Sendable
    /// The layer's effects: the chooser's among them.
    associatedtype LayerEffect

    /// The chooser's state inside the layer's.
    var chooser: AppState { get }
    /// The chooser's own action, as the layer takes it.
    static func chooser(_ action: Action) -> LayerAction
    /// The chooser's own effect inside one of the layer's; nil for the layer's own.
    static func chooserEffect(_ effect: LayerEffect) -> Effect?

    /// Applies `action`, which came at `now`; returns the work to do.
    mutating func reduce(_ action: LayerAction, at now: Moment) -> [LayerEffect]
    /// False once the program has quit.
    var isRunning: Bool { get }
    /// Whether a tick on each second is wanted.
    var needsTicks: Bool { get }
    /// When the state next changes by itself.
    var nextDeadline: Moment? { get }
}

/// The plain chooser: a layer of nothing around itself.
extension AppState: ChooserLayer {
    public typealias LayerAction = Action
    public typealias LayerEffect = Effect
    public var chooser: AppState { self }
    public static func chooser(_ action: Action) -> Action { action }
    public static func chooserEffect(_ effect: Effect) -> Effect? { effect }
}

/// What a layer around the chooser asks of the chooser's screen and keys,
/// set by the layer after each action: the chooser draws and refuses by
/// it without knowing whose it is.
public struct ChooserSurround: Hashable, Sendable {
    /// The top bar's title in place of the program's name (a greeting).
    public var title: String?
    /// A clock in the middle of the top bar.
    public var clock: String?
    /// A warning after the title, before any other, in forms from the
    /// fullest to the shortest: the first that fits is shown.
    public var warning: [String]?
    /// Main-screen commands refused whoever asks, with `lockedReason`:
    /// left out of the key bar and help.
    public var locked: Set<Command> = []
    /// Dialog commands refused whoever asks, with `lockedReason`.
    public var lockedInDialogs: Set<DialogCommand> = []
    /// What pressing a locked key says.
    public var lockedReason = Unavailable(reason: "This key does nothing here.", hidden: true)
    /// Why nothing that writes to the store can be done now, if so: said
    /// when such a key is pressed, and dimmed in the key bar.
    public var writesRefused: Unavailable?
    /// Rows kept free above the key bar, for the layer's own line.
    public var bottomRows = 0

    public init() {}
}
