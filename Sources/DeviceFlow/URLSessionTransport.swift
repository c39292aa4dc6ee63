import Foundation
import Synchronization
import SwitchboardCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP through URLSession, with a time limit per request, a size limit
/// enforced while the body streams in, and cancellation that ends the
/// request at once.
public final class URLSessionTransport: HTTPTransport {
    /// Largest response body accepted.
    public let maximumBytes: Int
    /// Seconds a request may take in all.
    public let timeout: TimeInterval
    private let delegate: Delegate
    /// Made on the first request: making one sets up libcurl (about a
    /// millisecond), which the chooser's first frame need not wait for.
    private let madeSession = Mutex<URLSession?>(nil)

    public init(timeout: TimeInterval = 15, maximumBytes: Int = 1 << 20) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        delegate = Delegate(maximumBytes: maximumBytes)
    }

    deinit { madeSession.withLock { $0?.invalidateAndCancel() } }

    private var session: URLSession {
        madeSession.withLock { made in
            if let made { return made }
            _ = Self.sharedCookieStorage
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            made = session
            return session
        }
    }

    /// Foundation's shared cookie store on Linux makes a folder named after
    /// the executable's folder (`bin`, `debug`) in `$XDG_DATA_HOME` (else
    /// `~/.local/share`) the first time any `URLSessionConfiguration` is made,
    /// even one that stores no cookies. Switchboard stores none, so the store
    /// is made once, before the first session, while the data home names a
    /// place where no folder can be made (`/dev/null`); the variable is then
    /// put back. Here, not at start, so that commands that never use HTTP
    /// do not pay for it.
    private static let sharedCookieStorage: HTTPCookieStorage = {
        let name = "XDG_DATA_HOME"
        let saved = getenv(name).map { String(cString: $0) }
        setenv(name, "/dev/null", 1)
        defer { if let saved { setenv(name, saved, 1) } else { unsetenv(name) } }
        return HTTPCookieStorage.shared
    }()

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let limit = min(timeout, max(0.1, request.timeout ?? timeout))
        var urlRequest = URLRequest(url: request.url, timeoutInterval: limit)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let host = request.url.host ?? request.url.absoluteString
        let task = session.dataTask(with: urlRequest)
        // URLSession on Linux does not always honour a request's own time
        // limit, so the transport keeps its own clock.
        let timer = Task { [delegate] in
            try await Task.sleep(nanoseconds: UInt64(limit * 1e9))
            delegate.fail(task, with: .timedOut(host: host))
        }
        defer { timer.cancel() }
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.register(task, host: host, continuation: continuation)
                // Cancelled before it began: it ends here, and is never started.
                if Task.isCancelled { return delegate.fail(task, with: .cancelled) }
                task.resume()
            }
        } onCancel: {
            delegate.fail(task, with: .cancelled)
        }
        return try result.get()
    }

    /// Collects each task's body and finishes its continuation exactly once.
    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        struct Pending {
            let host: String
            let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
            var body = Data()
            var failure: TransportError?
        }

        let maximumBytes: Int
        private let pending = Mutex<[Int: Pending]>([:])

        init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

        func register(_ task: URLSessionTask, host: String, continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
            pending.withLock { $0[task.taskIdentifier] = Pending(host: host, continuation: continuation) }
        }

        /// Ends a task with `failure` at once (unless it already ended): its
        /// caller hears it now, not when URLSession reports the task complete,
        /// which FoundationNetworking does not always do for a task cancelled
        /// while it waits for an answer (the caller would wait out the time
        /// limit, or for ever). The task is cancelled after; its completion,
        /// if it comes, finds nothing left to finish.
        func fail(_ task: URLSessionTask, with failure: TransportError) {
            guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            entry.continuation.resume(returning: .failure(failure))
            task.cancel()
        }

        /// Makes `failure` the task's result, however it completes; false
        /// when it already ended.
        private func settle(_ task: URLSessionTask, as failure: TransportError) -> Bool {
            pending.withLock { pending -> Bool in
                guard pending[task.taskIdentifier] != nil else { return false }
                pending[task.taskIdentifier]!.failure = failure
                return true
            }
        }

        /// A redirect must keep the origin (scheme, host and port): one to
        /// another origin ends the request with `redirectRefused`, naming
        /// both. Within the origin, only a GET that carries no credentials is
        /// followed: a POST body (client secret, device code, refresh token)
        /// or a bearer token is never sent on; such a request gets the
        /// redirect itself as its answer.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            let original = task.originalRequest
            let from = (original?.url).flatMap(httpOrigin(of:))
            let to = request.url.flatMap(httpOrigin(of:))
            guard let from, let to, from == to else {
                // Not cancelled here: FoundationNetworking traps when a task is
                // cancelled while it waits for this answer. Not followed, the
                // task completes with the redirect, and the result is this failure.
                _ = settle(task, as: .redirectRefused(
                    from: from?.displaySafe ?? "the server", to: to?.displaySafe ?? "a URL without an origin"))
                return completionHandler(nil)
            }
            let safe = original?.httpMethod == "GET" && original?.value(forHTTPHeaderField: "Authorization") == nil
            completionHandler(safe ? request : nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overflow = pending.withLock { pending -> TransportError? in
                guard var entry = pending[dataTask.taskIdentifier], entry.failure == nil else { return nil }
                entry.body.append(data)
                if entry.body.count > maximumBytes {
                    entry.body = Data()
                    pending[dataTask.taskIdentifier] = entry
                    return .tooLarge(host: entry.host, limit: maximumBytes)
                }
                pending[dataTask.taskIdentifier] = entry
                return nil
            }
            if let overflow { fail(dataTask, with: overflow) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let failure = entry.failure { return entry.continuation.resume(returning: .failure(failure)) }
            if let error {
                return entry.continuation.resume(returning: .failure(Self.classify(error, host: entry.host)))
            }
            guard let http = task.response as? HTTPURLResponse else {
                return entry.continuation.resume(returning: .failure(.unreachable(host: entry.host, detail: "no HTTP response")))
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            entry.continuation.resume(returning: .success(HTTPResponse(status: http.statusCode, headers: headers, body: entry.body)))
        }

        static func classify(_ error: any Error, host: String) -> TransportError {
            let code = (error as? URLError)?.code
            switch code {
            case .cancelled?: return .cancelled
            case .timedOut?: return .timedOut(host: host)
            default:
                let detail = code.flatMap(words) ?? (error as? URLError)?.localizedDescription ?? "\(error)"
                return .unreachable(host: host, detail: detail)
            }
        }

        /// What a transport error means, in words: Foundation on Linux says
        /// only "The operation couldn't be completed. (NSURLErrorDomain error
        /// -1004.)"; nil for a code with nothing better to say.
        static func words(_ code: URLError.Code) -> String? {
            switch code {
            case .cannotConnectToHost: "nothing answers there (connection refused)"
            case .cannotFindHost, .dnsLookupFailed: "no such host"
            case .notConnectedToInternet: "this machine has no network"
            case .networkConnectionLost: "the connection was lost"
            case .secureConnectionFailed: "the TLS connection failed"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
                "its TLS certificate is not trusted"
            case .badServerResponse: "it answered with something that is not HTTP"
            default: nil
            }
        }
    }
}
