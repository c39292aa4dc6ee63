import BoardUI
import ChooserUI
import SwitchboardCore
import TerminalUI

/// A program the chooser's loop runs: the chooser itself, a station or the
/// tour. Its actions and effects are the layer's, the chooser's among them;
/// the loop carries out the chooser's effects, the program its own.
public protocol ChooserProgram: ChooserLayer, ShellState where ShellAction == LayerAction, ShellEffect == LayerEffect {
    /// Carries out one of the program's own effects (never the chooser's).
    @MainActor static func perform(_ effect: LayerEffect, in loop: ChooserLoop<Self>)
    /// The chooser's action inside one of the program's, if it is one.
    static func chooserAction(_ action: LayerAction) -> Action?
}

extension ChooserProgram {
    public static func tick(_ now: Moment) -> LayerAction { chooser(.tick(now)) }
    public static func input(_ event: InputEvent) -> LayerAction { chooser(.input(event)) }
    public static func isInput(_ action: LayerAction) -> Bool { if case .input = chooserAction(action) { true } else { false } }
    public static var terminate: LayerAction { chooser(.terminate) }
    public static func storeOffline(_ detail: String?) -> LayerAction { chooser(.storeOffline(detail)) }
    public static func storeWaiting(_ waiting: Bool) -> LayerAction { chooser(.storeWaiting(waiting)) }
}

/// The plain chooser: every effect is the chooser's.
extension AppState: ChooserProgram {
    public typealias ShellAction = Action
    public typealias ShellEffect = Effect
    @MainActor public static func perform(_ effect: Effect, in loop: ChooserLoop<AppState>) {}
    public static func chooserAction(_ action: Action) -> Action? { action }
}

/// A station: its own effects are carried out by the loop's station part (`ChooserLoop+Station.swift`).
extension Station: ChooserProgram {
    public typealias ShellAction = StationAction
    public typealias ShellEffect = StationEffect
    @MainActor public static func perform(_ effect: StationEffect, in loop: ChooserLoop<Station>) { loop.performStation(effect) }
    public static func chooserAction(_ action: StationAction) -> Action? { if case .chooser(let action) = action { action } else { nil } }
}

/// The tour: its requests are carried out by the loop's tour part (`ChooserLoop+Tour.swift`).
extension Tour: ChooserProgram {
    public typealias ShellAction = TourAction
    public typealias ShellEffect = TourEffect
    @MainActor public static func perform(_ effect: TourEffect, in loop: ChooserLoop<Tour>) { loop.performTour(effect) }
    public static func chooserAction(_ action: TourAction) -> Action? { if case .chooser(let action) = action { action } else { nil } }
}

/// The operator's board as the shell runs it.
extension BoardState: ShellState {
    public typealias ShellAction = BoardAction
    public typealias ShellEffect = BoardEffect
    public static func tick(_ now: Moment) -> BoardAction { .tick(now) }
    public static func input(_ event: InputEvent) -> BoardAction { .input(event) }
    public static func isInput(_ action: BoardAction) -> Bool { if case .input = action { true } else { false } }
    public static var terminate: BoardAction { .terminate }
    public static func storeOffline(_ detail: String?) -> BoardAction { .storeOffline(detail) }
    public static func storeWaiting(_ waiting: Bool) -> BoardAction { .storeWaiting(waiting) }
}
