import DeviceFlow
import Foundation
import Synchronization

/// A clock that moves only when someone sleeps: `sleep(until:)` jumps there.
/// Shared by a flow and the demo server, it makes time-dependent tests exact
/// and instant.
public final class ManualClock: FlowClock, Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    public func sleep(until date: Date) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, date) }
        await Task.yield()
        try Task.checkCancellation()
    }

    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Wraps a transport, recording each request's URL and the clock's time
/// when it went out, and counting requests still in flight.
public final class RecordingTransport: HTTPTransport, Sendable {
    public let inner: any HTTPTransport
    public let clock: any FlowClock
    private let log = Mutex<[(url: URL, at: Date)]>([])
    private let inFlightCount = Atomic<Int>(0)

    public init(_ inner: any HTTPTransport, clock: any FlowClock) {
        self.inner = inner
        self.clock = clock
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        log.withLock { $0.append((request.url, clock.now())) }
        inFlightCount.add(1, ordering: .relaxed)
        defer { inFlightCount.subtract(1, ordering: .relaxed) }
        return try await inner.send(request)
    }

    /// Times (by the clock) of the requests to paths ending in `suffix`.
    public func times(_ suffix: String) -> [Date] {
        log.withLock { $0.filter { $0.url.path.hasSuffix(suffix) }.map(\.at) }
    }

    /// Every request's URL, in the order they went out.
    public var urls: [URL] { log.withLock { $0.map(\.url) } }

    public var inFlight: Int { inFlightCount.load(ordering: .relaxed) }
}

/// A tiny HTTP server on 127.0.0.1 for the misbehaving servers of the real
/// world: it answers each request with whatever the test scripts, byte for
/// byte, or resets the connection, or never answers.
public final class FaultServer: @unchecked Sendable {
    /// What to do with one request.
    public enum Action: Sendable {
        /// Send exactly these bytes, then close.
        case raw(Data)
        /// Close with a TCP reset.
        case reset
        /// Read the request and never answer (until the server stops).
        case hang
    }

    /// A request as received.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        public let body: String
        /// The header fields, by lower-cased name.
        public var headers: [String: String] = [:]
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    private let stopped = Atomic<Bool>(false)
    private let hanging = Mutex<[Int32]>([])

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public init(_ handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A response with a status, content type and body.
    public static func response(_ status: Int, _ contentType: String?, _ body: String, headers: [String] = []) -> Action {
        response(status, contentType, Data(body.utf8), headers: headers)
    }

    public static func response(_ status: Int, _ contentType: String?, _ body: Data, headers: [String] = []) -> Action {
        var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for header in headers { head += header + "\r\n" }
        return .raw(Data((head + "\r\n").utf8) + body)
    }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for descriptor in hanging.withLock({ $0 }) { close(descriptor) }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else {
            close(connection)
            return
        }
        switch handler(request) {
        case .raw(let data):
            data.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let n = send(connection, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    if n <= 0 { break }
                    sent += n
                }
            }
            close(connection)
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(connection)
        case .hang:
            hanging.withLock { $0.append(connection) }
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count - end.upperBound >= length {
                    let line = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
                    guard line.count >= 2 else { return nil }
                    var headers: [String: String] = [:]
                    for field in head.split(separator: "\r\n").dropFirst() {
                        let parts = field.split(separator: ":", maxSplits: 1)
                        if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
                    }
                    return Request(method: String(line[0]), path: String(line[1]),
                                   body: String(decoding: data[end.upperBound...], as: UTF8.self), headers: headers)
                }
            }
            let n = recv(connection, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data.append(buffer, count: n)
        }
    }
}

/// A thread-safe list that bus subscribers and callbacks append to.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    public init() {}
    public func add(_ item: Element) { items.withLock { $0.append(item) } }
    public var all: [Element] { items.withLock { $0 } }
}

/// Every run of eight bytes of a secret that shows in `texts`: what a test
/// of redaction expects to be empty. Eight bytes in a row of a random token
/// do not turn up by chance; fewer would match ordinary words. Each text is
/// read once, eight bytes at a time as one number (a rolling window), so a
/// big screen and long tokens cost little.
public func shownPieces(of secrets: [String], in texts: [String]) -> [String] {
    func number(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    var pieces: [UInt64: String] = [:]
    for secret in secrets {
        let bytes = Array(secret.utf8)
        guard bytes.count >= 8 else { continue }
        for start in 0...(bytes.count - 8) {
            pieces[number(bytes[start..<(start + 8)])] = String(decoding: bytes[start..<(start + 8)], as: UTF8.self)
        }
    }
    var shown: Set<String> = []
    for text in texts {
        let bytes = Array(text.utf8)
        guard bytes.count >= 8 else { continue }
        var window = number(bytes[0..<8])
        for end in 8...bytes.count {
            if let piece = pieces[window] { shown.insert(piece) }
            if end < bytes.count { window = window << 8 | UInt64(bytes[end]) }
        }
    }
    return shown.sorted()
}
