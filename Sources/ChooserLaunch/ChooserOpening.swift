import ChooserUI
import ConfigFile
import Dispatch
import StoreSnapshot
import SwitchboardCore
import TerminalUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the launcher reads to draw the chooser's first frame before it
/// loads the runtime: the session, the guide, the theme and the store's
/// contents — the runtime reads the same, the slow way, and draws the same
/// frame (`AppState.opening` and `open`).
public struct ChooserOpening: Sendable {
    public let session: SessionKey
    public let guide: Guide
    public let selection: ThemeSelection
    /// The store's contents, read on another thread while the guide, the
    /// theme and curses get ready on this one.
    let pending: PendingSnapshot

    /// Everything for the first frame, or nil when the runtime should do it
    /// all: a session name that is not valid, a config file that is named
    /// but missing or does not parse, no shipped guide, or no database file
    /// yet. The runtime then reports the problem or makes the database, as
    /// it always did. The store's read starts here and may still fail (see
    /// `snapshot`): the launcher then hands over a blank terminal, and the
    /// runtime reports the problem once the terminal is back.
    /// Reads at most `rows` accounts: no more than the frame can show at that height.
    public static func prepare(environment: [String: String], terminalName: String?, rows: Int) -> ChooserOpening? {
        guard case .success(let session) = SessionKey.resolve(explicit: nil, environment: environment, terminalName: terminalName)
        else { return nil }
        let config = ConfigLocation.resolve(explicit: nil, environment: environment)
        var configTheme: String?, configFile: String?
        if access(config.path, F_OK) == 0 {
            // Only the theme matters to the first frame; the runtime checks the rest.
            do {
                let document = try ConfigFile.load(path: config.path)
                (configTheme, configFile) = (try document.root.optionalString("theme"), document.file)
            } catch { return nil }
        } else if config.explicit {
            return nil
        }
        let database = DatabaseLocation.resolve(explicit: nil, environment: environment)
        guard access(database, F_OK) == 0 else { return nil }
        let pending = PendingSnapshot(path: database, session: session, limit: max(rows, 1))
        guard let guide = try? Guide.bundled() else { return nil }
        let selection = ThemeSelection.chooser(flag: nil, configTheme: configTheme, configFile: configFile, environment: environment)
        return ChooserOpening(session: session, guide: guide, selection: selection, pending: pending)
    }

    /// What the store holds, once read; nil when it could not be read
    /// quickly (another application's database, another schema…).
    public var snapshot: StoreSnapshot? { pending.wait() }

    /// The first frame's state on a terminal of `size` showing `colors`
    /// colours, or nil without a snapshot.
    public func state(size: Size, colors: Int, now: Moment) -> AppState? {
        guard let snapshot else { return nil }
        // Providers show only in the sign-in dialog, which the runtime opens.
        var state = AppState.opening(session: session, size: size, now: now, guide: guide, selection: selection, colors: colors, providers: [])
        state.open(accounts: snapshot.accounts, total: snapshot.total, active: snapshot.active, favourites: snapshot.favourites)
        return state
    }
}

/// A store read running on a global queue; `wait()` gives its result.
final class PendingSnapshot: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once before `done` is signalled, read only after waiting for it.
    private var result: StoreSnapshot?

    init(path: String, session: SessionKey, limit: Int) {
        DispatchQueue.global(qos: .userInteractive).async { [self] in
            result = StoreSnapshot.read(path: path, session: session, limit: limit)
            done.signal()
        }
    }

    func wait() -> StoreSnapshot? {
        done.wait()
        done.signal()  // for whoever waits next
        return result
    }
}
