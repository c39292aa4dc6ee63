import ChooserUI
import ConfigFile
import StoreSnapshot
import Synchronization
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
    let pending: BackgroundValue<StoreSnapshot?>

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
        let database = DatabaseLocation.resolve(explicit: nil, environment: environment)
        guard access(database, F_OK) == 0 else { return nil }
        // The read starts first: it takes longest, and needs only these two.
        let pending = BackgroundValue { StoreSnapshot.read(path: database, session: session, limit: max(rows, 1)) }
        let config = ConfigLocation.resolve(explicit: nil, environment: environment)
        var configTheme: String?, configFile: String?
        if access(config.path, F_OK) == 0 {
            // Only the theme matters to the first frame; the runtime checks the rest.
            do {
                let document = try ConfigFile.load(path: config.path)
                (configTheme, configFile) = (try document.root.optionalString("theme"), document.file)
            } catch { return abandon(pending) }
        } else if config.explicit {
            return abandon(pending)
        }
        guard let guide = try? Guide.bundled() else { return abandon(pending) }
        let selection = ThemeSelection.chooser(flag: nil, configTheme: configTheme, configFile: configFile, environment: environment)
        return ChooserOpening(session: session, guide: guide, selection: selection, pending: pending)
    }

    /// Waits for the read, for nothing: no thread is left running when there is no frame to draw.
    private static func abandon(_ pending: BackgroundValue<StoreSnapshot?>) -> ChooserOpening? {
        _ = pending.wait()
        return nil
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

/// A value computed on a thread of its own; `wait()` gives it.
///
/// A plain POSIX thread: it is running within about 50 µs, where a first
/// `DispatchQueue.global()` took about 250 µs to set up libdispatch's pool.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    /// The thread until someone has joined it.
    private let thread = Mutex<pthread_t?>(nil)
    /// Written by the thread before it ends; read only after it was joined.
    private nonisolated(unsafe) var value: Value?

    init(_ body: @escaping @Sendable () -> Value) {
        if let started = startThread({ [self] in value = body() }) {
            thread.withLock { $0 = started }
        } else {  // no thread: work here
            value = body()
        }
    }

    /// A thread nobody waited for (a terminal that would not start) is let go:
    /// it ends on its own. Not joined here, as this may run on that very thread.
    deinit {
        thread.withLock { thread in
            if let running = thread { pthread_detach(running) }
        }
    }

    /// The value, once the thread has ended.
    func wait() -> Value {
        thread.withLock { thread in
            if let running = thread { pthread_join(running, nil) }
            thread = nil
        }
        return value!  // set by the ended thread, or in init
    }
}

/// Starts `body` on a new thread; nil when no thread could be made. The
/// thread blocks every signal, so that the terminal's signals (resize,
/// interrupt, suspend) reach the thread that handles them.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    var all = sigset_t(), previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_SETMASK, &all, &previous)  // the new thread inherits it
    let status = pthread_create(&thread, nil, { context in
        Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    guard status == 0 else {
        Unmanaged<Start>.fromOpaque(context).release()
        return nil
    }
    return thread
}
