import ScreenKit
import SwitchboardCore
import TerminalUI

/// `demo tour`: the chooser walking itself through a script, until a key
/// hands it to the person; after the tour's idle time without one it starts
/// again in an empty store. The chooser's state inside, with the tour's own
/// around it; its reducer comes first for every action and calls the
/// chooser's for the chooser's part, and the script's moves press the
/// chooser's own keys.
@dynamicMemberLookup
public struct Tour: Sendable {
    /// The chooser inside.
    public internal(set) var chooser: AppState
    /// Where the script is, and who has the chooser.
    public internal(set) var tour: TourState

    /// The chooser on tour, at the script's start.
    public init(_ chooser: AppState, tour: TourState) {
        self.chooser = chooser
        self.tour = tour
        surround()
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<AppState, T>) -> T { chooser[keyPath: keyPath] }

    /// Keeps the row above the key bar for the caption.
    private mutating func surround() {
        chooser.surround.bottomRows = 1
    }
}

/// What happens on tour beyond the chooser's own actions.
public enum TourAction: Sendable {
    /// One of the chooser's.
    case chooser(Action)
    /// The tour's request `id` was carried out; `problem` says why not.
    case answered(id: Int, problem: String?)
}

/// Work the tour asks of the loop beyond the chooser's.
public enum TourEffect: Hashable, Sendable {
    /// One of the chooser's.
    case chooser(Effect)
    /// Carry out a request of the tour; `.answered(id:)` follows.
    case request(TourRequest, id: Int)
}

extension Tour: ChooserLayer {
    public typealias LayerAction = TourAction
    public typealias LayerEffect = TourEffect
    public static func chooser(_ action: Action) -> TourAction { .chooser(action) }

    public static func chooserEffect(_ effect: TourEffect) -> Effect? {
        if case .chooser(let effect) = effect { effect } else { nil }
    }

    public var isRunning: Bool { chooser.isRunning }
    public var needsTicks: Bool { chooser.needsTicks }
    public var nextDeadline: Moment? { [chooser.nextDeadline, nextTourDeadline].compactMap { $0 }.min() }
}

/// The tour's reducer: every action on tour comes here first; the chooser's
/// part is the chooser's reducer, unchanged. Here: the person taking over
/// (the key that does so does nothing else), the idle clock that gives the
/// chooser back to the tour, and the script's moves, made on ticks.
extension Tour {

    /// Applies `action`, which came at `now`: typed input counts as the person's.
    public mutating func reduce(_ action: TourAction, at now: Moment) -> [TourEffect] {
        chooser.now = now
        if case .chooser(.input) = action { tour.lastActivity = now }
        return reduce(action)
    }

    /// Applies `action` at the chooser's present time.
    public mutating func reduce(_ action: TourAction) -> [TourEffect] {
        let effects: [TourEffect]
        switch action {
        case .chooser(let action): effects = chooserAction(action)
        case .answered(let id, let problem): effects = answered(id, problem: problem)
        }
        surround()
        return effects
    }

    /// One of the chooser's actions, on tour.
    public mutating func reduce(_ action: Action) -> [TourEffect] { reduce(.chooser(action)) }

    /// One of the chooser's actions, on tour, come at `now`.
    public mutating func reduce(_ action: Action, at now: Moment) -> [TourEffect] { reduce(.chooser(action), at: now) }

    /// The chooser's reducer, its effects the tour's.
    mutating func apply(_ action: Action) -> [TourEffect] {
        chooser.reduce(action).map(TourEffect.chooser)
    }

    /// The answer to the tour's request `id`: it goes on, or starts again (or stops) with why not.
    private mutating func answered(_ id: Int, problem: String?) -> [TourEffect] {
        guard tour.pending == id else { return [] }
        tour.pending = nil
        tour.due = true
        guard let problem else { return [] }
        if tour.pendingFreshStore {
            // No empty store to start in: the tour stops, and the chooser is the person's.
            tour.mode = .person(lastInput: chooser.now)
            tour.idle = .infinity
            chooser.notify("The tour stopped: \(problem)", .error)
            return []
        }
        return restartTour(notice: "The tour starts again: \(problem)")
    }

    private mutating func chooserAction(_ action: Action) -> [TourEffect] {
        var effects: [TourEffect]
        switch action {
        case .input(let event) where !event.isResize:
            let at = tour.lastActivity ?? chooser.now
            let wasTouring = tour.mode == .touring
            tour.mode = .person(lastInput: at)
            guard wasTouring else { return apply(action) }
            // Handed over: the tour's moves stop where they are; a sign-in it started goes on for the person.
            tour.pauseUntil = nil
            tour.waitingSince = nil
            tour.pending = nil
            tour.notice = nil
            // The key that takes over does nothing else, but Ctrl-C and Ctrl-\ quit as anywhere.
            if case .key(let key) = event, Bindings.everywhere.command(for: key) == .quit { return apply(action) }
            return []
        case .tick(let date):
            effects = apply(action)
            if let idle = tour.personIdle, idle.hasRunOut(at: date) {
                effects += restartTour(notice: nil)
            }
            return effects + advanceTour()
        default:
            effects = apply(action)
        }
        // Something changed: the script is looked at on the next tick, which comes at once.
        if tour.mode == .touring { tour.due = true }
        return effects
    }

    /// When the tour next needs a tick: at once when the script may move
    /// on, at a pause's end or a wait's limit, or when the person's idle
    /// time runs out.
    var nextTourDeadline: Moment? {
        switch tour.mode {
        case .person: return tour.personIdle?.nextChange(after: chooser.now)
        case .touring:
            // Too small a terminal makes no moves: the resize that ends it comes as an action.
            if tour.pending != nil || ScreenLayout(chooser.size) == nil { return nil }
            if tour.due { return chooser.now }
            if let until = tour.pauseUntil { return until }
            return tour.waitingSince?.advanced(by: TourState.waitLimit)
        }
    }

    /// The caption line: what the step shows, or whose turn it is.
    public var caption: String? {
        switch tour.mode {
        case .person where tour.idle == .infinity:
            return "The tour has stopped: the chooser is yours, in a store of its own"
        case .person:
            return "Your turn: the chooser is yours, in a store of its own"
        case .touring:
            if let notice = tour.notice { return notice }
            guard tour.script.indices.contains(tour.step) else { return nil }
            return tour.script[tour.step].caption
        }
    }

    /// The caption's right end: how the chooser changes hands.
    public var hint: String? {
        switch tour.mode {
        case .touring: return "any key: your turn"
        case .person where tour.idle == .infinity: return nil
        case .person: return "the tour goes on after \(Self.seconds(tour.idle)) s without a key"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    // MARK: The script

    /// Makes the script's moves from where it is, as far as they go now;
    /// none while the terminal is too small to show them (a resize goes on).
    mutating func advanceTour() -> [TourEffect] {
        guard tour.mode == .touring, ScreenLayout(chooser.size) != nil else { return [] }
        tour.due = false
        var effects: [TourEffect] = []
        // Moves that are done at once follow each other in one turn; the
        // bound only guards a script that never waits.
        for _ in 0..<256 {
            guard tour.mode == .touring, tour.pending == nil else { break }
            guard tour.script.indices.contains(tour.step), tour.script[tour.step].moves.indices.contains(tour.move) else {
                effects += restartTour(notice: nil)
                break
            }
            switch makeMove(tour.script[tour.step].moves[tour.move], effects: &effects) {
            case .done: nextMove()
            case .waiting: return effects
            case .lost(let why): return effects + restartTour(notice: "The tour starts again: \(why)")
            }
        }
        return effects
    }

    private enum MoveResult { case done, waiting, lost(String) }

    private mutating func makeMove(_ move: TourMove, effects: inout [TourEffect]) -> MoveResult {
        switch move {
        case .pause(let beats):
            guard let until = tour.pauseUntil else {
                tour.pauseUntil = chooser.now.advanced(by: beats * tour.beat)
                return .waiting
            }
            guard chooser.now >= until else { return .waiting }
            tour.pauseUntil = nil
            return .done
        case .press(let key):
            effects += apply(.input(.key(key)))
            return .done
        case .chooseProvider(let id):
            guard case .signIn(let signIn) = chooser.dialog, case .choosing(let selection) = signIn.phase,
                let index = signIn.providers.firstIndex(where: { $0.id == id })
            else { return .lost("the provider list is not open") }
            for _ in 0..<abs(index - selection) { effects += apply(.input(.key(index > selection ? .down : .up))) }
            effects += apply(.input(.key(.enter)))
            return .done
        case .selectAccount(let name):
            guard let index = (0..<chooser.accounts.itemCount).first(where: { chooser.accounts.account(at: $0)?.name == name }) else {
                return .lost("no account named \(name)")
            }
            chooser.focus = .accounts
            let selection = chooser.accounts.selection
            for _ in 0..<abs(index - selection) { effects += apply(.input(.key(index > selection ? .down : .up))) }
            return .done
        case .showInspector:
            if !chooser.inspectorShown { effects += apply(.input(.key(.character("i")))) }
            return .done
        case .settings(let expiresIn, let interval, let slowDownPolls):
            effects.append(request(.settings(expiresIn: expiresIn, interval: interval, slowDownPolls: slowDownPolls)))
            return .done
        case .approve(let person):
            guard let code = shownCode else { return .lost("no code to approve") }
            effects.append(request(.approve(userCode: code, person: person)))
            return .done
        case .deny:
            guard let code = shownCode else { return .lost("no code to deny") }
            effects.append(request(.deny(userCode: code)))
            return .done
        case .until(let condition):
            if holds(condition) {
                tour.waitingSince = nil
                return .done
            }
            guard let since = tour.waitingSince else {
                tour.waitingSince = chooser.now
                return .waiting
            }
            return chooser.now.distance(to: since.advanced(by: TourState.waitLimit)) > 0 ? .waiting
                : .lost("waited \(Int(TourState.waitLimit)) s for \(condition.waitedFor)")
        case .again:
            effects += restartTour(notice: nil)
            return .waiting
        }
    }

    private mutating func nextMove() {
        if tour.move + 1 < tour.script[tour.step].moves.count {
            tour.move += 1
        } else {
            tour.step += 1
            tour.move = 0
            tour.notice = nil
        }
    }

    /// A request to the world, whose answer the tour waits for.
    private mutating func request(_ request: TourRequest) -> TourEffect {
        let id = tour.nextRequest
        tour.nextRequest += 1
        tour.pending = id
        tour.pendingFreshStore = request == .freshStore
        return .request(request, id: id)
    }

    /// The user code the sign-in dialog shows, if it shows one.
    private var shownCode: String? {
        guard case .signIn(let signIn) = chooser.dialog, case .waiting(let code) = signIn.phase else { return nil }
        return code.userCode
    }

    private func holds(_ condition: TourCondition) -> Bool {
        switch (condition, chooser.dialog) {
        case (.codeShown, .signIn(let signIn)?):
            if case .waiting = signIn.phase { return true }
            return false
        case (.slowedDown, .signIn(let signIn)?):
            return signIn.trace.contains { $0.result == "slow_down" }
        case (.signInEnded, .signIn(let signIn)?):
            if case .finished = signIn.phase { return true }
            return false
        case (.conflictShown, .conflict?):
            return true
        case (.noDialog, nil):
            return true
        default:
            return false
        }
    }

    /// The tour from its first step, in an empty store: any sign-in on
    /// screen cancelled, dialogs and the filter closed.
    private mutating func restartTour(notice: String?) -> [TourEffect] {
        var effects: [TourEffect] = []
        if case .signIn(let signIn) = chooser.dialog, signIn.talksToProvider { effects.append(.chooser(.cancelSignIn)) }
        chooser.dialog = nil
        chooser.accounts.isFiltering = false
        if !chooser.accounts.filter.isEmpty { chooser.setFilter("") }
        // The next store's list is another: nothing of this one (its index above all) is kept.
        chooser.accounts.list = AccountList(page: [], offset: 0, count: 0, protected: [], order: chooser.accounts.order)
        (chooser.accounts.selection, chooser.accounts.scroll, chooser.guide.selection, chooser.guide.scroll) = (0, 0, 0, 0)
        chooser.focus = .accounts
        tour.mode = .touring
        tour.step = 0
        tour.move = 0
        tour.round += 1
        tour.pauseUntil = nil
        tour.waitingSince = nil
        tour.notice = notice
        effects.append(request(.freshStore))
        return effects
    }
}
