import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on loopback between a client and a server, for fault tests
/// and `switchboard-bench faults`:
/// it passes bytes both ways, or holds them (a server that stopped
/// answering but keeps its connections, as one paused with SIGSTOP does:
/// new connections are accepted and wait too), or resets every connection.
/// What was held is delivered when it passes again, as a paused server
/// answers once it continues. One thread, one `poll` loop; `stop()` ends it.
public final class FaultProxy: @unchecked Sendable {
    /// What the proxy does with the bytes it is given.
    public enum Mode: Sendable {
        /// Forwards every byte both ways.
        case pass
        /// Forwards nothing, keeping it for later: a silent server.
        case hold
    }

    /// The loopback port clients connect to.
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let state = Mutex<(mode: Mode, stopped: Bool, resetAll: Bool)>((.pass, false, false))
    /// A pipe that wakes the loop when the mode changes.
    private let wake: (read: Int32, write: Int32)
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free loopback port and forwards to `127.0.0.1:target`.
    public init(to target: Int) throws {
        self.target = target
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ProxyError("socket: \(errno)") }
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            close(socket)
            throw ProxyError("bind or listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = socket
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ProxyError("pipe: \(errno)") }
        wake = (fds[0], fds[1])
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "fault proxy"
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    /// Passes bytes again, or holds them.
    public func set(_ mode: Mode) {
        state.withLock { $0.mode = mode }
        poke()
    }

    /// Closes every connection it carries with a reset (new ones are taken as usual).
    public func resetConnections() {
        state.withLock { $0.resetAll = true }
        poke()
    }

    /// Stops the proxy and closes every connection. Safe to call twice.
    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        poke()
        done.wait()
        close(listener)
        close(wake.read)
        close(wake.write)
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// One client connection and its server side, with what is held for each.
    private final class Pair {
        let client: Int32
        var server: Int32 = -1
        var toServer: [UInt8] = []
        var toClient: [UInt8] = []
        init(client: Int32) { self.client = client }
    }

    private func run() {
        var pairs: [Pair] = []
        defer {
            for pair in pairs { drop(pair, reset: false) }
            done.signal()
        }
        while true {
            let (mode, stopped, resetAll) = state.withLock { state in
                defer { state.resetAll = false }
                return (state.mode, state.stopped, state.resetAll)
            }
            if stopped { return }
            if resetAll {
                for pair in pairs { drop(pair, reset: true) }
                pairs.removeAll()
            }
            if mode == .pass {
                for pair in pairs where pair.server < 0 { pair.server = connectToTarget() }
                // No server there: the client hears its connection end, as from a refused one.
                for pair in pairs where pair.server < 0 { drop(pair, reset: false) }
                pairs.removeAll { $0.server < 0 }
                for pair in pairs { flush(pair) }
            }
            var watched = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for pair in pairs {
                watched.append(pollfd(fd: pair.client, events: Int16(POLLIN), revents: 0))
                watched.append(pollfd(fd: pair.server, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&watched, nfds_t(watched.count), 1000) >= 0 || errno == EINTR else { return }
            if watched[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                _ = read(wake.read, &buffer, buffer.count)
            }
            if watched[1].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    // Taken now, connected on the next turn (at once, when passing).
                    pairs.append(Pair(client: client))
                    poke()
                }
            }
            var closed: Set<ObjectIdentifier> = []
            // Those polled: a pair taken just now is looked at on the next turn.
            for (index, pair) in pairs.prefix((watched.count - 2) / 2).enumerated() {
                let clientEvents = watched[2 + 2 * index].revents, serverEvents = watched[3 + 2 * index].revents
                if clientEvents != 0, !take(from: pair.client, into: &pair.toServer) { closed.insert(ObjectIdentifier(pair)) }
                if pair.server >= 0, serverEvents != 0, !take(from: pair.server, into: &pair.toClient) { closed.insert(ObjectIdentifier(pair)) }
                if mode == .pass { flush(pair) }
            }
            for pair in pairs where closed.contains(ObjectIdentifier(pair)) { drop(pair, reset: false) }
            pairs.removeAll { closed.contains(ObjectIdentifier($0)) }
        }
    }

    /// Reads what `socket` has into `held`; false at its end.
    private func take(from socket: Int32, into held: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(socket, &buffer, buffer.count)
        if count <= 0 { return count < 0 && (errno == EAGAIN || errno == EINTR) }
        held.append(contentsOf: buffer[0..<count])
        return true
    }

    private func flush(_ pair: Pair) {
        if pair.server >= 0, !pair.toServer.isEmpty { send(&pair.toServer, to: pair.server) }
        if !pair.toClient.isEmpty { send(&pair.toClient, to: pair.client) }
    }

    private func send(_ bytes: inout [UInt8], to socket: Int32) {
        let written = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        if written > 0 { bytes.removeFirst(written) }
    }

    private func drop(_ pair: Pair, reset: Bool) {
        for socket in [pair.client, pair.server] where socket >= 0 {
            if reset {
                // SO_LINGER with no time: close sends a reset.
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            close(socket)
        }
    }

    private func connectToTarget() -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return -1
        }
        return socket
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// Why the proxy could not start.
public struct ProxyError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
