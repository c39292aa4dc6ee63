import CLibPQ
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a statement's answer is awaited: libpq in non-blocking mode, the
/// socket polled until the answer is whole or the server has been silent
/// for the connection's `deadline`. Past it the server is asked to cancel the statement (on a thread
/// of its own: libpq's cancel waits for the server, which may be the one
/// not answering) and the connection is closed, so its owner never waits
/// on a silent server longer than the deadline.
extension PGConnection {
    /// The open connection's handle, or the error a closed one gives.
    func open() throws(PGError) -> OpaquePointer {
        guard let handle else { throw PGError(.connectionLost, server: server, detail: "the connection is closed") }
        return handle
    }

    /// Waits for the answer to what was just sent (`sent`: what libpq's
    /// `PQsend…` returned): every result of it read, the last returned, or
    /// the first error thrown.
    func answer(sent: Int32) throws(PGError) -> PGResult {
        let handle = try open()
        guard sent == 1 else { throw failure(of: handle) }
        // The deadline is for the server's silence: a long answer that keeps coming is no reason to give up.
        var due = deadline.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        // What libpq could not write at once goes out as the socket takes it.
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            if flushed < 0 { throw failure(of: handle) }
            if try wait(for: Int16(POLLIN | POLLOUT), until: due) & Int16(POLLIN) != 0, PQconsumeInput(handle) != 1 {
                throw failure(of: handle)
            }
        }
        var last: OpaquePointer?
        var firstError: PGError?
        while true {
            while PQisBusy(handle) == 1 {
                do {
                    _ = try wait(for: Int16(POLLIN), until: due)
                } catch {
                    if let last { PQclear(last) }
                    throw error
                }
                guard PQconsumeInput(handle) == 1 else {
                    if let last { PQclear(last) }
                    throw failure(of: handle)
                }
                due = deadline.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
            }
            guard let result = PQgetResult(handle) else { break }
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                if let last { PQclear(last) }
                last = result
            } else if firstError == nil {
                firstError = error(of: result)
            } else {
                PQclear(result)
            }
        }
        if let firstError {
            if let last { PQclear(last) }
            throw firstError
        }
        guard let last else { throw PGError(isConnected ? .other : .connectionLost, server: server, detail: "the server sent no answer") }
        return PGResult(last)
    }

    /// The error a failed result describes (the result is freed).
    private func error(of result: OpaquePointer) -> PGError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = String(cString: PQresultErrorMessage(result))
        PQclear(result)
        if !isConnected { return PGError(.connectionLost, server: server, detail: message) }
        return PGError(state.map { PGError.classify(sqlState: $0) } ?? .other, server: server, detail: message)
    }

    /// What libpq says went wrong with the connection itself.
    private func failure(of handle: OpaquePointer) -> PGError {
        PGError(isConnected ? .other : .connectionLost, server: server, detail: String(cString: PQerrorMessage(handle)))
    }

    /// Waits until the socket is ready for `events`, or throws `.timedOut`
    /// (having cancelled and closed) when `due` passes first.
    private func wait(for events: Int16, until due: ContinuousClock.Instant?) throws(PGError) -> Int16 {
        while true {
            let milliseconds: Int32
            if let due {
                let left = ContinuousClock.now.duration(to: due)
                guard left > .zero else { throw abandon() }
                let (seconds, attoseconds) = left.components
                milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            } else {
                milliseconds = -1
            }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR { throw PGError(.connectionLost, server: server, detail: "cannot wait on the connection's socket") }
        }
    }

    /// Gives up on the statement under way: asks the server to cancel it,
    /// closes the connection, and returns the error to throw.
    private func abandon() -> PGError {
        if let handle, let cancel = PQgetCancel(handle) { Self.cancelInBackground(cancel) }
        close()
        let seconds = deadline.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "?"
        return PGError(.timedOut, server: server, detail: "no answer within \(seconds) s; the statement was cancelled and the connection closed")
    }

    /// Cancel requests still waiting for their server; past a few, a new
    /// one is not sent (the server that does not answer them is gone).
    private static let cancelsUnderWay = Atomic<Int>(0)
    static let mostCancelsUnderWay = 4

    /// Sends a cancel request from a thread of its own and frees it.
    private static func cancelInBackground(_ cancel: OpaquePointer) {
        guard cancelsUnderWay.add(1, ordering: .relaxed).newValue <= mostCancelsUnderWay else {
            cancelsUnderWay.subtract(1, ordering: .relaxed)
            return PQfreeCancel(cancel)
        }
        let request = CancelRequest(cancel)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(request).toOpaque()
        let started = pthread_create(&thread, nil, { box in
            let request = Unmanaged<CancelRequest>.fromOpaque(box!).takeRetainedValue()
            request.send()
            PGConnection.cancelsUnderWay.subtract(1, ordering: .relaxed)
            return nil
        }, box)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<CancelRequest>.fromOpaque(box).release()
            cancelsUnderWay.subtract(1, ordering: .relaxed)
        }
    }
}

/// A libpq cancel object, sent once and freed.
private final class CancelRequest: @unchecked Sendable {
    private let cancel: OpaquePointer

    init(_ cancel: OpaquePointer) { self.cancel = cancel }

    deinit { PQfreeCancel(cancel) }

    func send() {
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &message, Int32(message.count))
    }
}
