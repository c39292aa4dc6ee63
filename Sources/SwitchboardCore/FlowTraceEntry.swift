/// One step of a sign-in as `sign-in --trace` and the chooser's inspector
/// show it: an exchange with the provider (discovery, the device
/// authorization, a poll, the signing keys, userinfo) or a check of what it
/// answered (the id_token's claims). Built by `DeviceFlow`'s `FlowTrace`:
/// every value in it is already safe to show (secrets are their length and
/// a short hash, the rest `displaySafe`).
public struct FlowTraceEntry: Hashable, Sendable {
    /// Seconds since the flow began.
    public var elapsed: Double
    /// Where the step is specified, such as `RFC 8628 §3.4`.
    public var reference: String
    /// What the step is, such as `poll 3` or `device authorization`.
    public var step: String
    /// The HTTP status of the answer; nil for a check, or when none came.
    public var status: Int?
    /// What came of it in a few words: an OAuth error code, `OK`, `checked`,
    /// or why no answer came.
    public var result: String
    /// The request: method, URL and the fields sent; empty for a check, or a
    /// poll that sent what the first one did.
    public var sent: [String]
    /// The fields of the answer (or the claims checked).
    public var received: [String]

    public init(elapsed: Double, reference: String, step: String, status: Int?, result: String, sent: [String] = [], received: [String] = []) {
        self.elapsed = elapsed
        self.reference = reference
        self.step = step
        self.status = status
        self.result = result
        self.sent = sent
        self.received = received
    }

    /// `+5.02s  RFC 8628 §3.4 poll 1  HTTP 400 authorization_pending`.
    public var headline: String {
        let answer = status.map { "HTTP \($0) \(result)" } ?? result
        return "\(Self.time(elapsed))  \(reference) \(step)  \(answer)"
    }

    /// The lines under the headline: `→` what was sent, `←` what came back.
    public var details: [String] {
        (sent.isEmpty ? [] : ["→ " + sent.joined(separator: " ")]) + (received.isEmpty ? [] : ["← " + received.joined(separator: " ")])
    }

    /// The headline then the details, indented: what `--trace` prints.
    public var lines: [String] { [headline] + details.map { "    " + $0 } }

    /// `+0.00s`, `+12.35s`: seconds with two decimals, no Foundation.
    public static func time(_ seconds: Double) -> String {
        let hundredths = Int((max(0, seconds) * 100).rounded())
        let fraction = hundredths % 100
        return "+\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
    }
}
