import SwitchboardCore

/// Where a station's hand-off command stands for the person chosen there.
public enum HandOffPhase: Hashable, Sendable {
    /// Nobody was chosen here, or their command is over and they are signed out.
    case none
    /// Chosen here; the command starts once no dialog shows (the welcome
    /// after a sign-in, a conflict).
    case due(AccountID)
    /// The command has the terminal.
    case running(AccountID)
    /// The command has the terminal, but its person is no longer active: it is being ended.
    case ending(AccountID)
    /// The command ended; the sign-out is on its way.
    case ended(AccountID)

    /// Whose command it is, if there is one.
    var person: AccountID? {
        switch self {
        case .none: nil
        case .due(let id), .running(let id), .ending(let id), .ended(let id): id
        }
    }

    /// Whether the command has the terminal.
    public var isRunning: Bool {
        switch self {
        case .running, .ending: true
        case .none, .due, .ended: false
        }
    }
}

extension AppState {
    /// After every action at a station with a hand-off command: a person
    /// chosen here (switched to, or signed in) gets the command once no
    /// dialog shows. Who another program made active does not, nor does
    /// the account an identity was linked or merged into.
    mutating func kioskHandOff(after action: Action) -> [Effect] {
        guard var kiosk, kiosk.settings.command != nil else { return [] }
        if case .statusChanged(let change) = action, change.session == session, let id = change.current.id, kiosk.handOff == .none {
            switch change.reason {
            case .switched, .signedIn: kiosk.handOff = .due(id)
            default: break
            }
        }
        var effects: [Effect] = []
        switch kiosk.handOff {
        case .due(let id) where active.id != id:
            kiosk.handOff = .none
        case .due(let id) where dialog == nil && isRunning:
            kiosk.handOff = .running(id)
            effects.append(.handOff(id))
        case .running(let id) where active.id != id:
            // Signed out or switched from elsewhere meanwhile: the command is not theirs to go on with.
            kiosk.handOff = .ending(id)
            effects.append(.endHandOff)
        case .ended where active == .anonymous:
            kiosk.handOff = .none
        default:
            break
        }
        self.kiosk = kiosk
        return effects
    }

    /// The hand-off command ended: the station goes back to its first
    /// screen and this session to Anonymous; the idle time starts again.
    mutating func handOffEnded(at date: Moment, notice: (text: String, kind: Toast.Kind)?) -> [Effect] {
        guard isRunning, var kiosk, let id = kiosk.handOff.person, kiosk.handOff.isRunning else { return [] }
        kiosk.handOff = .ended(id)
        kiosk.lastActivity = date
        kiosk.swallowNextKey = false
        now = date
        self.kiosk = kiosk
        if let notice { notify(notice.text, notice.kind) }
        return returnToFirstScreen(signingOut: .handOffEnded)
    }
}
