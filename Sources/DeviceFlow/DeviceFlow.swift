import Foundation
import Synchronization
import SwitchboardCore

/// How a device flow ended.
public enum DeviceFlowResult: Hashable, Sendable {
    case approved(TokenSet)
    case denied
    case expired
    case cancelled
    case failed(FlowFailure)
}

/// Progress of the poll loop, for a live indicator.
public enum PollEvent: Hashable, Sendable {
    /// A poll is about to go out.
    case polling(attempt: Int)
    /// The provider asked to slow down; polls are now this many seconds apart.
    case slowedDown(interval: Int)
    /// The provider could not be reached; the next try is in this many seconds.
    case retrying(afterSeconds: Int, reason: String)
}

/// One sign-in by the OAuth 2.0 device authorization grant (RFC 8628).
/// Single-use: `requestCode` then `waitForApproval`, each once. `cancel()`
/// returns at once and ends any request in flight.
public final class DeviceFlow: Sendable {
    public let deviceAuthorizationEndpoint: URL
    public let tokenEndpoint: URL
    public let client: ClientCredentials
    public let scopes: [String]
    private let transport: any HTTPTransport
    private let clock: any FlowClock
    private let state = Mutex(State())

    private struct State {
        var authorization: DeviceAuthorization?
        var started = false
        var waited = false
        var cancelled = false
        var task: Task<DeviceFlowResult, Never>?
        var request: Task<Result<OAuthFields, FlowFailure>, Never>?
    }

    public init(
        deviceAuthorizationEndpoint: URL, tokenEndpoint: URL, client: ClientCredentials, scopes: [String],
        transport: any HTTPTransport, clock: any FlowClock = SystemFlowClock()
    ) {
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.client = client
        self.scopes = scopes
        self.transport = transport
        self.clock = clock
    }

    /// Asks the provider for a code to show (RFC 8628 §3.1).
    public func requestCode() async throws(FlowFailure) -> DeviceAuthorization {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.cancelled
        }
        guard first else { throw state.withLock(\.cancelled) ? .cancelled : .configuration("a device flow is single-use; start a new one") }
        var fields: [(String, String)] = []
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        // In a task of its own, so that `cancel()` ends this request too.
        let request = client.form(deviceAuthorizationEndpoint, fields)
        let transport = transport
        let asking = Task { () -> Result<OAuthFields, FlowFailure> in
            do throws(FlowFailure) { return .success(try await exchange(request, over: transport)) } catch { return .failure(error) }
        }
        state.withLock { $0.request = asking }
        if state.withLock(\.cancelled) { asking.cancel() }
        let answer = try await withTaskCancellationHandler { await asking.value } onCancel: { asking.cancel() }.get()
        if state.withLock(\.cancelled) { throw .cancelled }
        let authorization = try DeviceAuthorization(answer, issuedAt: clock.now())
        state.withLock { $0.authorization = authorization }
        return authorization
    }

    /// Polls the token endpoint until the person approves, denies, the code
    /// expires, or the flow is cancelled (RFC 8628 §3.4, §3.5).
    public func waitForApproval(onEvent: @escaping @Sendable (PollEvent) -> Void = { _ in }) async -> DeviceFlowResult {
        let task: Task<DeviceFlowResult, Never>? = state.withLock { state in
            guard let authorization = state.authorization, !state.waited, !state.cancelled else { return nil }
            state.waited = true
            let task = Task { await self.poll(authorization, onEvent: onEvent) }
            state.task = task
            return task
        }
        guard let task else {
            return state.withLock(\.cancelled) ? .cancelled : .failed(.configuration("request a code first; a device flow is single-use"))
        }
        return await withTaskCancellationHandler { await task.value } onCancel: { self.cancel() }
    }

    /// Ends the flow now. Any request in flight is cancelled.
    public func cancel() {
        let (task, request) = state.withLock { state in
            state.cancelled = true
            return (state.task, state.request)
        }
        task?.cancel()
        request?.cancel()
    }

    private func poll(_ authorization: DeviceAuthorization, onEvent: @Sendable (PollEvent) -> Void) async -> DeviceFlowResult {
        let deadline = authorization.expiresAt
        var interval = authorization.interval
        var retryDelay = authorization.interval
        var next = authorization.issuedAt.addingTimeInterval(TimeInterval(interval))
        var attempt = 0
        var request = client.form(tokenEndpoint, [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", authorization.deviceCode),
        ])

        while true {
            if next >= deadline {
                // No poll at or past the deadline; the code expires when it says.
                try? await clock.sleep(until: deadline)
                return Task.isCancelled ? .cancelled : .expired
            }
            do { try await clock.sleep(until: next) } catch { return .cancelled }
            if Task.isCancelled { return .cancelled }
            attempt += 1
            onEvent(.polling(attempt: attempt))
            // A poll never outlives the code: its time limit ends at the deadline.
            request.timeout = deadline.timeIntervalSince(clock.now())
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch .cancelled {
                return .cancelled
            } catch where error.isProviderFault {
                // An answer that cannot be used (too large, redirected
                // elsewhere) would come again: it ends the flow at once.
                return .failed(FlowFailure(error))
            } catch {
                // Network trouble: back off exponentially, within the deadline.
                retryDelay = min(retryDelay * 2, 300)
                onEvent(.retrying(afterSeconds: retryDelay, reason: error.description))
                next = clock.now().addingTimeInterval(TimeInterval(retryDelay))
                continue
            }
            let fields = OAuthFields(response)
            switch fields.error?.code {
            case nil where (200..<300).contains(response.status):
                do { return .approved(try TokenClient.tokens(from: fields, at: clock.now())) } catch { return .failed(error) }
            case "authorization_pending"?:
                retryDelay = interval
                next = clock.now().addingTimeInterval(TimeInterval(interval))
            case "slow_down"?:
                interval = DeviceAuthorization.interval(afterSlowDown: interval)
                retryDelay = interval
                onEvent(.slowedDown(interval: interval))
                next = clock.now().addingTimeInterval(TimeInterval(interval))
            case "access_denied"?, "authorization_declined"?:
                return .denied
            case "expired_token"?:
                return .expired
            case let code?:
                // Its words may repeat the device code or the client secret it was sent: not shown.
                let error = fields.error ?? OAuthError(code: code, description: nil)
                return .failed(.provider(error.scrubbed(SecretScrubber(SecretScrubber.secrets(in: request)))))
            case nil where response.status >= 500 || response.status == 429:
                // A struggling server, not an answer: back off like a network failure.
                retryDelay = min(retryDelay * 2, 300)
                onEvent(.retrying(afterSeconds: retryDelay, reason: "HTTP \(response.status)"))
                next = clock.now().addingTimeInterval(TimeInterval(retryDelay))
            case nil:
                return .failed(.invalidResponse("HTTP \(response.status) from \(tokenEndpoint.host ?? "the token endpoint") with \(fields.describedBody)"))
            }
        }
    }
}
