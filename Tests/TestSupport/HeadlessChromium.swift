import Foundation
import ProcessKit
import Synchronization
import TestBasics

#if canImport(Glibc)
    import Glibc
#endif

/// What went wrong talking to the browser, in words.
public struct BrowserError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Debian's Chromium, headless, driven over the Chrome DevTools protocol on
/// a pipe (`--remote-debugging-pipe`: it reads commands on its descriptor 3
/// and writes answers and events on 4, each a JSON text ended by a NUL; no
/// WebSocket, no port). Here both are one end of a socket pair, so that a
/// write to a browser that has gone fails instead of raising SIGPIPE.
///
/// It runs with a throwaway profile and home in a temporary folder, removed
/// with it, and talks to nothing but loopback: no background networking,
/// no component or safe-browsing updates, no sync, no crash reports, and
/// every host name but `localhost` unresolvable (what it still tries,
/// Google's clock and update servers, fails at once, with no query sent).
/// Its net log shows it: `trafficBeyondLoopback()`. As root it needs
/// `--no-sandbox`. Released while it still runs, it is killed with the
/// processes it started.
public final class HeadlessChromium: Sendable {
    /// One event the browser sent (a method and its parameters), in order of arrival.
    public struct Event: Sendable {
        public let method: String
        public let session: String?
        public let params: JSONValue
    }

    /// Debian's Chromium: the program its `chromium` package installs
    /// (`/usr/lib/chromium/chromium`; the `chromium` on PATH is a shell
    /// script that adds settings of its own, such as Google's API keys,
    /// and then runs it), else `chromium` on PATH; nil when neither is there.
    public static var executable: String? {
        if access("/usr/lib/chromium/chromium", X_OK) == 0 { return "/usr/lib/chromium/chromium" }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/chromium" }.first { access($0, X_OK) == 0 }
    }

    private let pid: pid_t
    private let folder: String
    private let connection: Connection

    /// Starts `executable` (see `executable`) with an empty page.
    public init(executable: String) throws {
        folder = scratchFolder + "switchboard-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: folder)
            throw BrowserError("cannot make a socket pair: \(why)")
        }
        // The browser's end above 4, so that setting up its descriptor 3 cannot overwrite it before 4 copies it.
        let theirs = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        let copyError = errno
        Glibc.close(pair[1])
        let folder = folder
        func failure(_ why: String) -> BrowserError {
            if theirs >= 0 { Glibc.close(theirs) }
            Glibc.close(pair[0])
            try? FileManager.default.removeItem(atPath: folder)
            return BrowserError(why)
        }
        guard theirs >= 0 else { throw failure("cannot copy a descriptor: \(String(cString: strerror(copyError)))") }
        // Made here, as the spawner opens files without a mode, so that this process can read what it says.
        guard FileManager.default.createFile(atPath: folder + "/stderr.log", contents: nil) else {
            throw failure("cannot create \(folder)/stderr.log")
        }
        let arguments =
            [
                "--headless", "--remote-debugging-pipe", "--user-data-dir=\(folder)/profile",
                "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
                "--disable-client-side-phishing-detection", "--disable-breakpad", "--no-pings", "--disable-dev-shm-usage",
                "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1", "--no-proxy-server", "--password-store=basic",
                "--mute-audio", "--force-color-profile=srgb", "--log-net-log=\(folder)/net-log.json", "about:blank",
            ] + (getuid() == 0 ? ["--no-sandbox"] : [])
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder,
            "XDG_CONFIG_HOME": folder + "/config", "XDG_CACHE_HOME": folder + "/cache",
        ]
        do {
            (pid, _) = try spawnChild(
                executable, arguments, environment: environment,
                descriptors: [
                    .open("/dev/null", O_RDONLY), .open("/dev/null", O_WRONLY),
                    .open(folder + "/stderr.log", O_WRONLY), .same(theirs), .same(theirs),
                ],
                group: .newGroup(foreground: nil))
        } catch {
            throw failure("cannot start \(executable): \(error)")
        }
        Glibc.close(theirs)
        let connection = Connection(socket: pair[0], stderrLog: folder + "/stderr.log")
        self.connection = connection
        let pid = pid
        Thread.detachNewThread { connection.readUntilClosed() }
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
            connection.state.withLock { $0.ended = true }  // no signal is sent from here on, so reaping cannot misdirect one
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }

    deinit {
        killGroup()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Kills the browser's whole process group (the renderers, GPU process
    /// and zygote it started too), unless it has ended.
    private func killGroup() {
        connection.state.withLock { state in
            if !state.ended { kill(-pid, SIGKILL) }
        }
    }

    /// Sends `method` with `params` (to the page of `session`, or to the
    /// browser) and returns its result; throws the browser's error, or when
    /// no answer comes within `seconds`.
    @discardableResult
    public func call(_ method: String, _ params: JSONValue = [:], session: String? = nil, within seconds: Double = 30) async throws -> JSONValue {
        struct Command: Encodable {
            let id: Int
            let method: String
            let params: JSONValue
            let sessionId: String?
        }
        let id = connection.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message = try JSONEncoder().encode(Command(id: id, method: method, params: params, sessionId: session))
        message.append(0)
        let connection = connection
        let timer = Task {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            connection.answer(id, .failure(BrowserError("no answer to \(method) within \(seconds) s\(connection.stderrTail)")))
        }
        defer { timer.cancel() }
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            let closed = connection.state.withLock { state -> String? in
                if state.closed == nil { state.waiting[id] = continuation }
                return state.closed
            }
            if let closed { return continuation.resume(throwing: BrowserError("\(method): \(closed)\(connection.stderrTail)")) }
            if let failure = connection.send(message) { connection.answer(id, .failure(BrowserError("\(method): \(failure)"))) }
        }
        if let error = answer["error"] {
            throw BrowserError("\(method): \(error["message"]?.string ?? "\(error)")")
        }
        return answer["result"] ?? [:]
    }

    /// The events of `method` for `session` received so far.
    public func events(_ method: String, session: String?) -> [Event] {
        connection.state.withLock { $0.events.filter { $0.method == method && $0.session == session } }
    }

    /// A new tab, attached (its commands go to the returned page's session),
    /// with page and runtime events on.
    public func openPage() async throws -> BrowserPage {
        let target = try await call("Target.createTarget", ["url": "about:blank"])
        guard let id = target["targetId"]?.string else { throw BrowserError("Target.createTarget answered \(target)") }
        let attached = try await call("Target.attachToTarget", ["targetId": .string(id), "flatten": true])
        guard let session = attached["sessionId"]?.string else { throw BrowserError("Target.attachToTarget answered \(attached)") }
        let page = BrowserPage(browser: self, session: session)
        try await call("Page.enable", session: session)
        try await call("Runtime.enable", session: session)
        return page
    }

    /// What the browser's net log shows it tried beyond loopback: TCP
    /// connections to other addresses, DNS queries (its own or the system's
    /// resolver's), UDP datagrams sent. Read once it has closed (`close()`),
    /// when the log is complete.
    public func trafficBeyondLoopback() throws -> [String] {
        struct NetLog: Decodable {
            struct Constants: Decodable { let logEventTypes: [String: Int] }
            struct Event: Decodable {
                let type: Int
                let params: JSONValue?
            }
            let constants: Constants
            let events: [Event]
        }
        let log = try JSONDecoder().decode(NetLog.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/net-log.json")))
        let names = Dictionary(log.constants.logEventTypes.map { ($1, $0) }) { first, _ in first }
        let resolving: Set = ["HOST_RESOLVER_DNS_TASK", "HOST_RESOLVER_SYSTEM_TASK", "DNS_TRANSACTION", "UDP_BYTES_SENT"]
        var found: [String] = []
        for event in log.events {
            let name = names[event.type] ?? "event \(event.type)"
            let address = event.params?["address"]?.string
            let beyond: String? =
                if resolving.contains(name) { name }
                else if name == "TCP_CONNECT_ATTEMPT", let address, !address.hasPrefix("127."), !address.hasPrefix("[::1]") { "TCP to \(address)" }
                else { nil }
            if let beyond, !found.contains(beyond) { found.append(beyond) }
        }
        return found
    }

    /// Asks the browser to close and waits for it to end (killed after
    /// `seconds`): a test ends with no browser left running.
    public func close(within seconds: Double = 10) async {
        _ = try? await call("Browser.close", within: seconds)
        if (try? await waitUntil("chromium to exit", within: seconds, { self.connection.state.withLock { $0.ended } })) == nil { killGroup() }
    }
}

/// The DevTools pipe: answers matched to their commands, events kept in order.
private final class Connection: Sendable {
    struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var events: [HeadlessChromium.Event] = []
        /// Why no more answers will come, once the pipe has closed.
        var closed: String?
        /// Whether the browser process has ended (and so its id may be another's).
        var ended = false
    }

    let state = Mutex(State())
    /// Our end of the socket pair; closed (under this lock) when the browser has closed its end.
    private let socket: Mutex<Int32>
    private let stderrLog: String

    init(socket: Int32, stderrLog: String) {
        self.socket = Mutex(socket)
        self.stderrLog = stderrLog
    }

    /// Writes all of `message`; the failure in words, or nil.
    func send(_ message: Data) -> String? {
        socket.withLock { socket in
            guard socket >= 0 else { return "chromium closed its DevTools pipe" }
            return message.withUnsafeBytes { bytes in
                var sent = 0
                while sent < bytes.count {
                    let n = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return "cannot write to chromium: \(String(cString: strerror(errno)))" }
                    sent += n
                }
                return nil
            }
        }
    }

    /// Resumes whoever waits for the answer `id`, if anyone still does.
    func answer(_ id: Int, _ result: Result<JSONValue, any Error>) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(with: result)
    }

    /// Reads NUL-ended messages until the browser closes its end: answers
    /// go to whoever waits for them, events are kept. Then closes ours.
    func readUntilClosed() {
        let descriptor = socket.withLock { $0 }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            // Only what just came can hold the next NUL: a screenshot comes in many reads.
            let start = pending.count
            pending.append(contentsOf: chunk[..<n])
            var from = start
            while let end = pending[from...].firstIndex(of: 0) {
                from = 0
                let text = Data(pending[..<end])
                pending.removeSubrange(...end)
                guard let message = try? JSONDecoder().decode(JSONValue.self, from: text) else { continue }
                if let id = message["id"]?.number {
                    answer(Int(id), .success(message))
                } else if let method = message["method"]?.string {
                    let event = HeadlessChromium.Event(method: method, session: message["sessionId"]?.string, params: message["params"] ?? [:])
                    state.withLock { $0.events.append(event) }
                }
            }
        }
        socket.withLock { socket in
            close(socket)
            socket = -1
        }
        let waiting = state.withLock { state in
            state.closed = "chromium closed its DevTools pipe"
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: BrowserError("chromium closed its DevTools pipe\(stderrTail)")) }
    }

    /// The last lines chromium wrote on its standard error, for a failure's message.
    var stderrTail: String {
        let text = (try? String(contentsOfFile: stderrLog, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").filter { !$0.contains("dbus") }.suffix(5)
        return lines.isEmpty ? "" : "; chromium said:\n" + lines.joined(separator: "\n")
    }
}
