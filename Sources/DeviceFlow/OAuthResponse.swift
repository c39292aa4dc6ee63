import Foundation
import SwitchboardCore

/// The fields of a provider's answer, whatever shape it came in: JSON,
/// form-encoded (GitHub without `Accept`), or nothing usable (HTML, empty).
struct OAuthFields: Sendable {
    private(set) var values: [String: String] = [:]
    /// What the body was, for messages.
    let format: String

    /// The body's format with its article, as a message says it: "a JSON body", "an empty body".
    var describedBody: String {
        (["empty", "HTML"].contains(format) ? "an " : "a ") + format + " body"
    }

    init(_ response: HTTPResponse) {
        let text = String(decoding: response.body, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let type = response.contentType
        if type.contains("json") || (!type.contains("html") && trimmed.hasPrefix("{")) {
            format = "JSON"
            if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
                for (key, value) in object {
                    switch value {
                    case let string as String: values[key] = string
                    case let number as NSNumber: values[key] = number.stringValue
                    default: continue
                    }
                }
            }
        } else if type.contains("x-www-form-urlencoded")
            || (!type.contains("html") && !trimmed.isEmpty && !trimmed.contains("<") && trimmed.contains("="))
        {
            format = "form"
            values = FormEncoding.decode(trimmed)
        } else {
            format = trimmed.isEmpty ? "empty" : (type.contains("html") || trimmed.hasPrefix("<") ? "HTML" : "text")
        }
    }

    subscript(key: String) -> String? {
        values[key].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A count of seconds, sent as a number or a string: nil when absent,
    /// else a finite, non-negative number at most `maximum` (larger ones are
    /// cut to it). Anything else (`nan`, `inf`, negative, not a number) is
    /// an invalid response naming the field.
    func seconds(_ key: String, atMost maximum: Int) throws(FlowFailure) -> Int? {
        guard let text = self[key] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            throw .invalidResponse("\(key) is not a number of seconds: \(text.displaySafeSingleLine)")
        }
        return value >= Double(maximum) ? maximum : Int(value.rounded(.down))
    }

    /// The OAuth error, when the answer is one (any status: GitHub sends 200).
    var error: OAuthError? {
        self["error"].map { OAuthError(code: $0, description: self["error_description"]) }
    }
}

/// An OAuth error answer (RFC 6749 §5.2, RFC 8628 §3.5).
public struct OAuthError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: String
    public let description_: String?

    public init(code: String, description: String?) {
        self.code = code
        self.description_ = description
    }

    public var description: String {
        let code = code.displaySafeSingleLine
        return description_.map { "\(code): \($0.displaySafeSingleLine)" } ?? code
    }

    /// The error with every secret in `scrubber` taken out of its words.
    func scrubbed(_ scrubber: SecretScrubber) -> OAuthError {
        OAuthError(code: scrubber.scrub(code), description: description_.map(scrubber.scrub))
    }
}

/// Why a flow or a token request failed. Messages say what went wrong and
/// never carry a token or secret.
public enum FlowFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The provider answered with an OAuth error.
    case provider(OAuthError)
    /// The provider answered something that is not OAuth.
    case invalidResponse(String)
    /// The provider could not be reached.
    case offline(String)
    /// The provider's configuration is missing something.
    case configuration(String)
    /// The identity could not be verified (id_token, userinfo).
    case unverifiable(String)
    /// The person cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .provider(let error): "the provider refused: \(error)"
        case .invalidResponse(let detail): "the provider's answer was not understood: \(detail)"
        case .offline(let detail): detail
        case .configuration(let detail): detail
        case .unverifiable(let detail): "the sign-in could not be verified: \(detail)"
        case .cancelled: "cancelled"
        }
    }

    /// A transport failure as the flow reports it: an answer that came but
    /// cannot be used (too large, a redirect to another origin) is the
    /// provider's fault (`invalidResponse`); no answer at all is `offline`.
    public init(_ error: TransportError) {
        if error == .cancelled {
            self = .cancelled
        } else if error.isProviderFault {
            self = .invalidResponse(error.description)
        } else {
            self = .offline(error.description)
        }
    }
}

extension String {
    /// Safe to show on one line (`displaySafe`: no escape sequence, control
    /// or bidirectional character), at most 300 characters.
    var displaySafeSingleLine: String {
        let cleaned = displaySafe
        return cleaned.count > 300 ? String(cleaned.prefix(300)) + "…" : cleaned
    }
}

/// Sends a request and reads the answer's fields; an OAuth error or a
/// non-2xx status without one becomes a `FlowFailure`.
func exchange(_ request: HTTPRequest, over transport: some HTTPTransport) async throws(FlowFailure) -> OAuthFields {
    let response: HTTPResponse
    do { response = try await transport.send(request) } catch { throw FlowFailure(error) }
    return try checkedFields(response, answering: request)
}

/// `checkedFields` of the answer to `request`: a provider that repeats a
/// secret it was sent in its error's words does not get it shown.
func checkedFields(_ response: HTTPResponse, answering request: HTTPRequest) throws(FlowFailure) -> OAuthFields {
    do {
        return try checkedFields(response, from: request.url)
    } catch .provider(let error) {
        throw .provider(error.scrubbed(SecretScrubber(SecretScrubber.secrets(in: request))))
    }
}

func checkedFields(_ response: HTTPResponse, from url: URL) throws(FlowFailure) -> OAuthFields {
    let fields = OAuthFields(response)
    if let error = fields.error { throw .provider(error) }
    guard (200..<300).contains(response.status) else {
        throw .invalidResponse("HTTP \(response.status) from \(url.host ?? url.absoluteString) with \(fields.describedBody)")
    }
    return fields
}
