import Foundation

/// The secret values in hand during an exchange with a provider (a device
/// code, tokens, a client secret, a PKCE verifier), and text with each of
/// them replaced by its redaction (`FlowTrace.redacted`): for whatever a
/// provider sends that is shown or printed, whichever field carries the
/// secret (a provider may repeat one in `error_description`, `message`,
/// `error_uri` or a URL). Values shorter than `shortest` are not looked
/// for: a secret is longer, and a short one would mark ordinary text.
struct SecretScrubber: Sendable {
    /// The shortest value looked for.
    static let shortest = 8
    /// Longest first, so that a secret holding another is replaced whole.
    private(set) var secrets: [String] = []

    init(_ values: some Sequence<String> = []) { add(values) }

    mutating func add(_ values: some Sequence<String>) {
        let fresh = values.filter { $0.utf8.count >= Self.shortest && !secrets.contains($0) }
        guard !fresh.isEmpty else { return }
        secrets = (secrets + Set(fresh)).sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `text` with every secret, as it is or percent-encoded, replaced by its redaction.
    func scrub(_ text: String) -> String {
        var text = text
        for secret in secrets {
            for form in Set([secret, FormEncoding.escape(secret)]) where text.contains(form) {
                text = text.replacingOccurrences(of: form, with: FlowTrace.redacted(secret))
            }
        }
        return text
    }

    /// The secrets a request carries: its secret form fields, and the
    /// credentials of its `Authorization` header (a bearer token; Basic's
    /// client secret, form-decoded).
    static func secrets(in request: HTTPRequest) -> [String] {
        var found: [String] = []
        if request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true, let body = request.body {
            let form = FormEncoding.decode(String(decoding: body, as: UTF8.self))
            found += form.filter { FlowTrace.secretFields.contains($0.key) }.map(\.value)
        }
        if let authorization = request.headers["Authorization"] {
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].lowercased() == "basic", let decoded = Data(base64Encoded: parts[1]),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":") {
                found.append(FormEncoding.unescape(String(pair[pair.index(after: colon)...])))
            } else if parts.count == 2 {
                found.append(parts[1])
            }
        }
        return found
    }

    /// The secrets an answer carries in its secret fields.
    static func secrets(in fields: OAuthFields) -> [String] {
        FlowTrace.secretFields.compactMap { fields[$0] }
    }
}
