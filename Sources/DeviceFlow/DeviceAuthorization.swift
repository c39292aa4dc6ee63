import Foundation

/// What to show the person: the code, where to enter it, until when
/// (RFC 8628 §3.2).
public struct DeviceAuthorization: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The device code is secret: it is sent only to the token endpoint.
    let deviceCode: String
    /// As the provider wrote it, with or without a dash.
    public let userCode: String
    public let verificationURI: URL
    public let verificationURIComplete: URL?
    public let expiresIn: Int
    /// Seconds between polls, 5 when the provider did not say.
    public let interval: Int
    /// When the code was issued (by the flow's clock).
    public let issuedAt: Date

    public var expiresAt: Date { issuedAt.addingTimeInterval(TimeInterval(expiresIn)) }

    /// Without the device code, which is secret.
    public var description: String { "DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI), expiresIn: \(expiresIn))" }
    public var debugDescription: String { description }

    /// What a QR code should hold: the complete URI when offered.
    public var qrPayload: String { (verificationURIComplete ?? verificationURI).absoluteString }

    init(_ fields: OAuthFields, issuedAt: Date) throws(FlowFailure) {
        guard let deviceCode = fields["device_code"], let userCode = fields["user_code"] else {
            throw .invalidResponse("the device authorization lacks device_code or user_code")
        }
        // Google says verification_url; RFC 8628 says verification_uri.
        guard let uri = (fields["verification_uri"] ?? fields["verification_url"]).flatMap(URL.init(string:)),
            uri.scheme == "https" || uri.scheme == "http"
        else { throw .invalidResponse("the device authorization lacks a usable verification_uri") }
        self.deviceCode = deviceCode
        self.userCode = userCode.displaySafeSingleLine
        verificationURI = uri
        // A complete URI that carries the device code (as it is or encoded) would show it on screen and in the QR code: not used.
        let scrubber = SecretScrubber([deviceCode])
        verificationURIComplete = (fields["verification_uri_complete"] ?? fields["verification_url_complete"])
            .flatMap { scrubber.scrub($0) == $0 ? $0 : nil }
            .flatMap(URL.init(string:)).flatMap { $0.scheme == "https" || $0.scheme == "http" ? $0 : nil }
        guard let expiresIn = try fields.seconds("expires_in", atMost: Self.longestLifetime), expiresIn > 0 else {
            throw .invalidResponse("the device authorization lacks expires_in")
        }
        self.expiresIn = expiresIn
        // An interval that is missing or not a number of seconds means the default.
        let stated = try? fields.seconds("interval", atMost: Self.pollIntervals.upperBound)
        interval = min(max(stated ?? 5, Self.pollIntervals.lowerBound), Self.pollIntervals.upperBound)
        self.issuedAt = issuedAt
    }

    /// The longest a code is believed to live, whatever the provider says: one day.
    public static let longestLifetime = 86_400
    /// Seconds between polls are kept in this range, `slow_down` included.
    public static let pollIntervals = 1...600

    /// The interval after a `slow_down` answer: five seconds more (RFC 8628 §3.5), within `pollIntervals`.
    public static func interval(afterSlowDown interval: Int) -> Int {
        min(interval + 5, pollIntervals.upperBound)
    }
}

