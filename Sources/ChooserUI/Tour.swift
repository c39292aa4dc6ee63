import SwitchboardCore
import TerminalUI

/// What the tour asks of the world outside the reducer, carried out by the
/// loop (`Effect.tour`); the answer comes back as `.tourAnswered`.
public enum TourRequest: Hashable, Sendable {
    /// The demo provider's switches for the codes it issues next.
    case settings(expiresIn: Int, interval: Int, slowDownPolls: Int)
    /// Approve the code as a demo person, through the provider's approval API.
    case approve(userCode: String, person: String)
    /// Deny the code, through the provider's approval API.
    case deny(userCode: String)
    /// An empty store in place of the one the chooser shows.
    case freshStore
}

/// What must hold before the tour goes on.
public enum TourCondition: Hashable, Sendable {
    /// The sign-in dialog shows a code.
    case codeShown
    /// The provider has answered a poll with `slow_down`.
    case slowedDown
    /// The sign-in dialog shows how it ended.
    case signInEnded
    /// The conflict dialog asks merge, switch or cancel.
    case conflictShown
    /// No dialog is open.
    case noDialog

    /// What is waited for, in words.
    var waitedFor: String {
        switch self {
        case .codeShown: "a code"
        case .slowedDown: "a slow_down answer"
        case .signInEnded: "the sign-in to end"
        case .conflictShown: "the conflict dialog"
        case .noDialog: "the dialog to close"
        }
    }
}

/// One move of the tour: keys pressed as a person would, the demo
/// provider asked, or a wait.
public enum TourMove: Hashable, Sendable {
    /// Waits this many beats, so the room can read the screen.
    case pause(beats: Double)
    /// Presses a key, through the chooser's own key tables.
    case press(Key)
    /// In the open provider list, moves to this provider and presses Enter.
    case chooseProvider(ProviderID)
    /// Moves the accounts pane's selection to the account of this name.
    case selectAccount(named: String)
    /// Presses `i` when the inspector is hidden.
    case showInspector
    /// Asks the demo provider for this code lifetime, poll interval and
    /// number of `slow_down` answers for the next codes.
    case settings(expiresIn: Int, interval: Int, slowDownPolls: Int)
    /// Approves the code on screen as this demo person.
    case approve(person: String)
    /// Denies the code on screen.
    case deny
    /// Waits until the condition holds (at most `TourState.waitLimit`).
    case until(TourCondition)
    /// Starts the script again, in an empty store.
    case again
}

/// A step of the tour: a caption for the room and the moves that show it.
public struct TourStep: Hashable, Sendable {
    public let caption: String
    public let moves: [TourMove]

    public init(_ caption: String, _ moves: [TourMove]) {
        self.caption = caption
        self.moves = moves
    }
}

/// `demo tour`: the chooser walking itself through a script, until a key
/// hands it to the person; after `idle` seconds without one it starts again
/// in an empty store.
public struct TourState: Sendable {
    /// Who has the chooser.
    public enum Mode: Hashable, Sendable {
        case touring
        /// The person, whose last key or click came at this time.
        case person(lastInput: Moment)
    }

    public let script: [TourStep]
    /// Seconds a beat of a pause lasts.
    public let beat: Double
    /// Seconds without a key before the tour takes the chooser back.
    public internal(set) var idle: Double
    public internal(set) var mode: Mode = .touring
    /// The step shown, an index into `script`.
    public internal(set) var step = 0
    /// The move of that step to make next.
    public internal(set) var move = 0
    /// Rounds begun, this one included.
    public internal(set) var round = 1
    /// Why the tour had to start again, shown until its first step is over.
    public internal(set) var notice: String?
    var pauseUntil: Moment?
    var waitingSince: Moment?
    /// The request whose answer the tour waits for.
    var pending: Int?
    /// Whether that request is for an empty store (which, refused, stops the tour).
    var pendingFreshStore = false
    var nextRequest = 1
    /// Whether the script should be looked at on the next tick.
    var due = true
    /// When input last arrived (the loop's stamp on it).
    var lastActivity: Moment?

    /// The longest a `.until` waits before the tour gives up and starts again.
    public static let waitLimit = 60.0

    public init(script: [TourStep], beat: Double, idle: Double) {
        self.script = script
        self.beat = beat
        self.idle = idle
    }
}

/// The tour layer: every action on tour comes here first (`AppState.reduce`);
/// the chooser's part is `apply`, unchanged. Here: the person taking over
/// (the key that does so does nothing else), the idle clock that gives the
/// chooser back to the tour, and the script's moves, made on ticks.
extension AppState {
    /// Puts the chooser on tour, at the script's start.
    public mutating func startTour(_ tour: TourState) {
        self.tour = tour
    }

    mutating func reduceOnTour(_ action: Action) -> [Effect] {
        var effects: [Effect]
        switch action {
        case .input(let event) where !event.isResize:
            let at = tour?.lastActivity ?? now
            let wasTouring = tour?.mode == .touring
            tour?.mode = .person(lastInput: at)
            guard wasTouring else { return apply(action) }
            // Handed over: the tour's moves stop where they are; a sign-in it started goes on for the person.
            tour?.pauseUntil = nil
            tour?.waitingSince = nil
            tour?.pending = nil
            tour?.notice = nil
            // The key that takes over does nothing else, but Ctrl-C and Ctrl-\ quit as anywhere.
            if case .key(let key) = event, Bindings.everywhere.command(for: key) == .quit { return apply(action) }
            return []
        case .tick(let date):
            effects = apply(action)
            if case .person(let last) = tour?.mode, let idle = tour?.idle, date >= last.advanced(by: idle) {
                effects += restartTour(notice: nil)
            }
            return effects + advanceTour()
        case .tourAnswered(let id, let problem):
            guard let tour, tour.pending == id else { return [] }
            self.tour?.pending = nil
            self.tour?.due = true
            guard let problem else { return [] }
            if tour.pendingFreshStore {
                // No empty store to start in: the tour stops, and the chooser is the person's.
                self.tour?.mode = .person(lastInput: now)
                self.tour?.idle = .infinity
                notify("The tour stopped: \(problem)", .error)
                return []
            }
            return restartTour(notice: "The tour starts again: \(problem)")
        default:
            effects = apply(action)
        }
        // Something changed: the script is looked at on the next tick, which comes at once.
        if tour?.mode == .touring { tour?.due = true }
        return effects
    }

    /// When the tour next needs a tick: at once when the script may move
    /// on, at a pause's end or a wait's limit, or when the person's idle
    /// time runs out.
    var nextTourDeadline: Moment? {
        guard let tour else { return nil }
        switch tour.mode {
        case .person(let last): return tour.idle.isFinite ? last.advanced(by: tour.idle) : nil
        case .touring:
            // Too small a terminal makes no moves: the resize that ends it comes as an action.
            if tour.pending != nil || ScreenLayout(size) == nil { return nil }
            if tour.due { return now }
            if let until = tour.pauseUntil { return until }
            return tour.waitingSince?.advanced(by: TourState.waitLimit)
        }
    }

    /// The caption line: what the step shows, or whose turn it is.
    public var tourCaption: String? {
        guard let tour else { return nil }
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
    public var tourHint: String? {
        guard let tour else { return nil }
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
    mutating func advanceTour() -> [Effect] {
        guard tour?.mode == .touring, ScreenLayout(size) != nil else { return [] }
        tour?.due = false
        var effects: [Effect] = []
        // Moves that are done at once follow each other in one turn; the
        // bound only guards a script that never waits.
        for _ in 0..<256 {
            guard let tour, tour.mode == .touring, tour.pending == nil else { break }
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

    private mutating func makeMove(_ move: TourMove, effects: inout [Effect]) -> MoveResult {
        guard let tour else { return .waiting }
        switch move {
        case .pause(let beats):
            guard let until = tour.pauseUntil else {
                self.tour?.pauseUntil = now.advanced(by: beats * tour.beat)
                return .waiting
            }
            guard now >= until else { return .waiting }
            self.tour?.pauseUntil = nil
            return .done
        case .press(let key):
            effects += apply(.input(.key(key)))
            return .done
        case .chooseProvider(let id):
            guard case .signIn(let dialog) = dialog, case .choosing(let selection) = dialog.phase,
                let index = dialog.providers.firstIndex(where: { $0.id == id })
            else { return .lost("the provider list is not open") }
            for _ in 0..<abs(index - selection) { effects += apply(.input(.key(index > selection ? .down : .up))) }
            effects += apply(.input(.key(.enter)))
            return .done
        case .selectAccount(let name):
            guard let index = (0..<accounts.itemCount).first(where: { accounts.account(at: $0)?.name == name }) else {
                return .lost("no account named \(name)")
            }
            focus = .accounts
            let selection = accounts.selection
            for _ in 0..<abs(index - selection) { effects += apply(.input(.key(index > selection ? .down : .up))) }
            return .done
        case .showInspector:
            if !inspectorShown { effects += apply(.input(.key(.character("i")))) }
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
                self.tour?.waitingSince = nil
                return .done
            }
            guard let since = tour.waitingSince else {
                self.tour?.waitingSince = now
                return .waiting
            }
            return now.distance(to: since.advanced(by: TourState.waitLimit)) > 0 ? .waiting
                : .lost("waited \(Int(TourState.waitLimit)) s for \(condition.waitedFor)")
        case .again:
            effects += restartTour(notice: nil)
            return .waiting
        }
    }

    private mutating func nextMove() {
        guard let tour else { return }
        if tour.move + 1 < tour.script[tour.step].moves.count {
            self.tour?.move += 1
        } else {
            self.tour?.step += 1
            self.tour?.move = 0
            self.tour?.notice = nil
        }
    }

    /// A request to the world, whose answer the tour waits for.
    private mutating func request(_ request: TourRequest) -> Effect {
        let id = tour?.nextRequest ?? 0
        tour?.nextRequest += 1
        tour?.pending = id
        tour?.pendingFreshStore = request == .freshStore
        return .tour(request, id: id)
    }

    /// The user code the sign-in dialog shows, if it shows one.
    private var shownCode: String? {
        guard case .signIn(let dialog) = dialog, case .waiting(let code) = dialog.phase else { return nil }
        return code.userCode
    }

    private func holds(_ condition: TourCondition) -> Bool {
        switch (condition, dialog) {
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
    private mutating func restartTour(notice: String?) -> [Effect] {
        var effects: [Effect] = []
        if case .signIn(let signIn) = dialog, signIn.talksToProvider { effects.append(.cancelSignIn) }
        dialog = nil
        accounts.isFiltering = false
        if !accounts.filter.isEmpty { setFilter("") }
        // The next store's list is another: nothing of this one (its index above all) is kept.
        accounts.list = AccountList(page: [], offset: 0, count: 0, protected: [], order: accounts.order)
        (accounts.selection, accounts.scroll, guide.selection, guide.scroll) = (0, 0, 0, 0)
        focus = .accounts
        tour?.mode = .touring
        tour?.step = 0
        tour?.move = 0
        tour?.round += 1
        tour?.pauseUntil = nil
        tour?.waitingSince = nil
        tour?.notice = notice
        effects.append(request(.freshStore))
        return effects
    }
}
