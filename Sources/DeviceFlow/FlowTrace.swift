import Crypto
import Foundation
import Synchronization
import SwitchboardCore

/// The record of one sign-in's exchanges with its provider, entry by entry
/// as they happen (`FlowTraceEntry`): what `sign-in --trace` prints and the
/// chooser's inspector lists. The exchanges come from a `TracingTransport`
/// around the flow's transport, the id_token's checked claims from
/// `IdentityResolver`; nothing else records into it.
///
/// Secrets never reach an entry: the device code, tokens, client secrets
/// and bearer headers are their length and a short hash (`redacted`), as is
/// any field of an answer the trace does not know to be public. User codes,
/// URLs and claims are shown as they are, made `displaySafe`.
public final class FlowTrace: Sendable {
    private let clock: any FlowClock
    private let began: Date
    private let onEntry: @Sendable ([FlowTraceEntry]) -> Void
    private let state = Mutex(State())

    private struct State {
        var entries: [FlowTraceEntry] = []
        var polls = 0
        /// Seconds between polls, as the flow keeps it (from the device
        /// authorization, then after each `slow_down`).
        var interval: Int?
        /// Every secret value seen so far, in requests and answers: taken out of whatever is shown.
        var scrubber = SecretScrubber()
    }

    /// A trace starting now by `clock`; each time an entry is recorded,
    /// `onEntry` is called with every entry so far, the new one last (on the
    /// thread of the exchange).
    public init(clock: any FlowClock = SystemFlowClock(), onEntry: @escaping @Sendable ([FlowTraceEntry]) -> Void = { _ in }) {
        self.clock = clock
        began = clock.now()
        self.onEntry = onEntry
    }

    /// Every entry so far, oldest first.
    public var entries: [FlowTraceEntry] { state.withLock { $0.entries } }

    private func record(_ make: (inout State, Double) -> FlowTraceEntry) {
        let elapsed = clock.now().timeIntervalSince(began)
        let entries = state.withLock { state in
            state.entries.append(make(&state, elapsed))
            return state.entries
        }
        onEntry(entries)
    }

    // MARK: Exchanges

    /// What a request of the flow is, told from the request alone: the
    /// flow's own requests differ by method, grant and fields.
    enum Exchange: Equatable {
        case discovery, deviceAuthorization, poll, refresh, revocation, keys, userinfo, userAPI

        init(_ request: HTTPRequest, form: [String: String]) {
            if request.method == "GET" || request.method == "HEAD" {
                if request.url.path.hasSuffix("/.well-known/openid-configuration") {
                    self = .discovery
                } else if request.headers["Authorization"] != nil {
                    self = request.url.path.lowercased().contains("userinfo") ? .userinfo : .userAPI
                } else {
                    self = .keys
                }
            } else if form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" {
                self = .poll
            } else if form["grant_type"] == "refresh_token" {
                self = .refresh
            } else if form["token"] != nil {
                self = .revocation
            } else if request.headers["Authorization"]?.lowercased().hasPrefix("bearer ") == true {
                // A bearer token is a user's; a client's own Basic credentials go to the device endpoint too.
                self = .userinfo
            } else {
                self = .deviceAuthorization
            }
        }

        var reference: String {
            switch self {
            case .discovery: "OIDC Discovery §4"
            case .deviceAuthorization: "RFC 8628 §3.1–3.2"
            case .poll: "RFC 8628 §3.4–3.5"
            case .refresh: "RFC 6749 §6"
            case .revocation: "RFC 7009 §2"
            case .keys: "OIDC Core §10.1"
            case .userinfo: "OIDC Core §5.3"
            case .userAPI: "provider API"
            }
        }

        var step: String {
            switch self {
            case .discovery: "discovery"
            case .deviceAuthorization: "device authorization"
            case .poll: "poll"
            case .refresh: "refresh"
            case .revocation: "revocation"
            case .keys: "signing keys"
            case .userinfo: "userinfo"
            case .userAPI: "user"
            }
        }
    }

    /// Records an exchange and its answer.
    func record(_ request: HTTPRequest, answer response: HTTPResponse) {
        let form = Self.form(of: request)
        let exchange = Exchange(request, form: form)
        let fields = OAuthFields(response)
        record { state, elapsed in
            state.scrubber.add(SecretScrubber.secrets(in: request) + SecretScrubber.secrets(in: fields))
            var step = exchange.step
            var sent = Self.sent(request, form: form, scrubber: state.scrubber)
            if exchange == .poll {
                state.polls += 1
                step = "poll \(state.polls)"
                // Every poll sends what the first one did.
                if state.polls > 1 { sent = [] }
            }
            let error = fields.error?.code
            var received = Self.received(exchange, response, fields, scrubber: state.scrubber)
            switch (exchange, error) {
            case (.deviceAuthorization, nil) where (200..<300).contains(response.status):
                state.interval = (try? DeviceAuthorization(fields, issuedAt: Date()))?.interval
            case (.poll, "slow_down"?):
                let slower = DeviceAuthorization.interval(afterSlowDown: state.interval ?? 5)
                state.interval = slower
                received.append("interval now \(slower) s")
            default: break
            }
            let result = error.map { state.scrubber.scrub($0).displaySafeSingleLine } ?? ((200..<300).contains(response.status) ? "OK" : "")
            return FlowTraceEntry(elapsed: elapsed, reference: exchange.reference, step: step, status: response.status,
                                  result: exchange == .poll && error == nil && result == "OK" ? "OK: tokens" : result,
                                  sent: sent, received: received)
        }
    }

    /// Records an exchange that got no answer.
    func record(_ request: HTTPRequest, failure: TransportError) {
        let form = Self.form(of: request)
        let exchange = Exchange(request, form: form)
        record { state, elapsed in
            state.scrubber.add(SecretScrubber.secrets(in: request))
            var step = exchange.step
            if exchange == .poll {
                state.polls += 1
                step = "poll \(state.polls)"
            }
            return FlowTraceEntry(elapsed: elapsed, reference: exchange.reference, step: step, status: nil,
                                  result: "no answer: \(failure.description.displaySafeSingleLine)", sent: Self.sent(request, form: form, scrubber: state.scrubber))
        }
    }

    /// Records the claims of an id_token whose signature, issuer, audience
    /// and times were checked.
    func recordIDToken(_ claims: IDTokenClaims, keyID: String?, algorithm: String, at now: Date) {
        record { _, elapsed in
            var received = [
                "iss=" + Self.shown(claims.iss ?? "-"),
                "aud=" + Self.shown(claims.aud?.joined(separator: ",") ?? "-"),
                "exp=" + Self.time(claims.exp, now: now),
                "iat=" + Self.time(claims.iat, now: now),
                "kid=" + Self.shown(keyID ?? "-"),
                "alg=" + Self.shown(algorithm),
                "sub=" + Self.shown(claims.sub ?? "-"),
            ]
            for (name, value) in [("name", claims.name), ("email", claims.email)] {
                if let value { received.append("\(name)=" + Self.shown(value)) }
            }
            return FlowTraceEntry(elapsed: elapsed, reference: "OIDC Core §3.1.3.7", step: "id_token", status: nil,
                                  result: "checked: signature, iss, aud, exp", received: received)
        }
    }

    /// Records a step's note: what was done, or passed over, and why.
    func recordNote(_ step: String, _ note: String) {
        record { state, elapsed in
            FlowTraceEntry(elapsed: elapsed, reference: "OIDC Core §5.3", step: step, status: nil, result: state.scrubber.scrub(note).displaySafeSingleLine)
        }
    }

    /// Records that the code's lifetime ran out with no answer saying so:
    /// the flow sends no poll past `expires_in` (RFC 8628 §3.2, §3.5).
    public func recordExpiry() {
        guard entries.last?.result != "expired_token" else { return }
        record { _, elapsed in
            FlowTraceEntry(elapsed: elapsed, reference: "RFC 8628 §3.2", step: "expires_in", status: nil,
                           result: "the code expired: no poll is sent past its lifetime")
        }
    }

    // MARK: What is shown

    /// A secret as its length and the first six hex digits of its SHA-256:
    /// `‹43 chars #9f2c1a›`.
    public static func redacted(_ secret: String) -> String {
        let digest = SHA256.hash(data: Data(secret.utf8))
        let hex = digest.prefix(3).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        // No-break spaces: the inspector wraps lines at spaces, never inside this.
        return "‹\(secret.utf8.count)\u{A0}chars\u{A0}#\(hex)›"
    }

    /// Fields whose values are secrets, wherever they appear.
    static let secretFields: Set<String> = [
        "device_code", "access_token", "refresh_token", "id_token", "client_secret", "token", "code", "code_verifier",
        "client_assertion", "assertion", "password",
    ]

    /// Fields of a request shown as they are.
    static let publicRequestFields: Set<String> = ["client_id", "scope", "grant_type", "token_type_hint"]

    /// Fields of an OAuth answer shown as they are; any other is redacted.
    static let publicAnswerFields: Set<String> = [
        "user_code", "verification_uri", "verification_uri_complete", "verification_url", "verification_url_complete",
        "expires_in", "ext_expires_in", "interval", "error", "error_description", "error_uri", "token_type", "scope", "message",
    ]

    /// Claims of a userinfo or user API answer shown (as they are).
    static let claimFields = ["sub", "id", "login", "name", "preferred_username", "email", "email_verified"]

    private static func form(of request: HTTPRequest) -> [String: String] {
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
            let body = request.body
        else { return [:] }
        return FormEncoding.decode(String(decoding: body, as: UTF8.self))
    }

    private static func sent(_ request: HTTPRequest, form: [String: String], scrubber: SecretScrubber) -> [String] {
        func shown(_ text: String) -> String { Self.shown(scrubber.scrub(text)) }
        func quoted(_ text: String) -> String { Self.quoted(scrubber.scrub(text)) }
        var sent = ["\(request.method) \(shown(request.url.absoluteString))"]
        if let authorization = request.headers["Authorization"] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            sent.append("Authorization: \(parts.count == 2 ? shown(String(parts[0])) + " " : "")\(redacted(parts.count == 2 ? String(parts[1]) : authorization))")
        }
        for (name, value) in form.sorted(by: { $0.key < $1.key }) {
            sent.append("\(shown(name))=" + (publicRequestFields.contains(name) ? quoted(value) : redacted(value)))
        }
        return sent
    }

    private static func received(_ exchange: Exchange, _ response: HTTPResponse, _ fields: OAuthFields, scrubber: SecretScrubber) -> [String] {
        // Whatever a provider says, a secret it repeats is not shown.
        func shown(_ text: String) -> String { Self.shown(scrubber.scrub(text)) }
        guard fields.format == "JSON" || fields.format == "form" else {
            return response.body.isEmpty ? [] : ["\(fields.describedBody) of \(response.body.count) bytes"]
        }
        switch exchange {
        case .discovery:
            let keys = ["issuer", "device_authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"]
            return keys.compactMap { key in fields[key].map { "\(key)=" + shown($0) } }
        case .keys:
            let keys = ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["keys"] as? [[String: Any]] ?? []
            return ["\(keys.count) key\(keys.count == 1 ? "" : "s")"] + keys.prefix(4).map { key in
                ["kid", "alg", "kty"].compactMap { name in (key[name] as? String).map { "\(name)=" + shown($0) } }.joined(separator: " ")
            }
        case .userinfo, .userAPI:
            return claimFields.compactMap { key in fields[key].map { "\(key)=" + shown($0) } }
        case .poll where ["authorization_pending", "slow_down"].contains(fields.error?.code):
            return []
        case .poll, .deviceAuthorization, .refresh, .revocation:
            return fields.values.keys.sorted().compactMap { key in
                guard let value = fields[key], key != "error" else { return nil }
                return "\(shown(key))=" + (publicAnswerFields.contains(key) && !secretFields.contains(key) ? shown(value) : redacted(value))
            }
        }
    }

    private static func shown(_ text: String) -> String { text.displaySafeSingleLine }

    private static func quoted(_ text: String) -> String {
        let shown = shown(text)
        return shown.contains(" ") ? "\"\(shown)\"" : shown
    }

    private static func time(_ claim: IDTokenClaims.Time, now: Date) -> String {
        switch claim {
        case .absent: return "-"
        case .notANumber: return "(not a number)"
        case .date(let date):
            let seconds = Int(date.timeIntervalSince(now).rounded())
            let when = seconds > 0 ? "in \(seconds) s" : seconds == 0 ? "now" : "\(-seconds) s ago"
            return ISO8601DateFormatter().string(from: date) + " (\(when))"
        }
    }
}

/// A transport that records every exchange in a `FlowTrace`, then hands the
/// answer on unchanged: the one place a sign-in's exchanges are traced.
public struct TracingTransport: HTTPTransport {
    public let inner: any HTTPTransport
    public let trace: FlowTrace

    public init(_ inner: any HTTPTransport, trace: FlowTrace) {
        self.inner = inner
        self.trace = trace
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        do {
            let response = try await inner.send(request)
            trace.record(request, answer: response)
            return response
        } catch {
            if error != .cancelled { trace.record(request, failure: error) }
            throw error
        }
    }
}
