import FlyingFox
import Foundation

/// What the server checks of every request before routing it: that it was
/// addressed to this server (a `Host` naming its own loopback address or
/// its public one, so a page on another name that resolves to it cannot
/// read it), and that a request that changes something was not sent by a
/// page of another origin.
struct RequestChecks: Sendable {
    /// `host:port` forms this server answers to: 127.0.0.1, localhost and
    /// [::1] at its port, the host it was started on, the other address it
    /// listens on, and the public URL's host (with its port when it names one).
    let hosts: Set<String>
    /// The `host:port` forms of this machine's loopback address alone: only
    /// they reach `/api/`, whatever address or proxy a request came through
    /// (a tunnel to loopback carries the public name in `Host`).
    let loopbackHosts: Set<String>
    /// The origins (`http://host:port`, and the public URL's) of its own pages.
    let origins: Set<String>

    init(issuer: String, publicURL: URL? = nil, listen: String? = nil) {
        let url = URL(string: issuer)
        let port = url?.port.map { ":\($0)" } ?? ""
        var hosts: Set<String> = ["127.0.0.1\(port)", "localhost\(port)", "[::1]\(port)"]
        if let host = url?.host { hosts.insert(Self.bracketed(host) + port) }
        loopbackHosts = hosts
        if let listen { hosts.insert(listen.lowercased()) }
        var origins = Set(hosts.map { "http://" + $0 })
        if let publicURL, let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host?.lowercased() {
            let authority = Self.bracketed(host) + (publicURL.port.map { ":\($0)" } ?? "")
            hosts.insert(authority)
            origins.insert("\(scheme)://\(authority)")
        }
        self.hosts = hosts
        self.origins = origins
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Why `request` is refused, or nil when it may go on.
    func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.headers[HTTPHeader("Host")]?.lowercased(), hosts.contains(host) else {
            return Reply.error("invalid_request", "this server answers only to its own address (Host: one of \(hosts.sorted().joined(separator: ", ")))",
                               status: HTTPStatusCode(421, phrase: "Misdirected Request"))
        }
        if request.path.hasPrefix("/api/"), !loopbackHosts.contains(host) {
            return Reply.error("forbidden", "the demo provider's API answers only on this machine's loopback address", status: .forbidden)
        }
        guard request.method == .POST else { return nil }
        let origin = request.headers[HTTPHeader("Origin")]
        if let origin, !origins.contains(origin.lowercased()) {
            return Reply.error("forbidden", "requests from other origins may not change anything", status: .forbidden)
        }
        if request.path.hasPrefix("/api/") {
            let type = request.headers[.contentType]?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" else {
                return Reply.error("invalid_request", "the body must be sent as Content-Type: application/json",
                                   status: HTTPStatusCode(415, phrase: "Unsupported Media Type"))
            }
        }
        if request.path == "/device" && origin == nil && !fromOwnPage(request.headers[HTTPHeader("Referer")]) {
            // A browser sends Origin with every form post; the page's own
            // posts carry one of ours (its Referrer-Policy is same-origin).
            return Reply.html(ApprovalPage.result(
                "Not sent from the approval page",
                "This request has no Origin header, nor a Referer of this page, so nothing was approved: a form on another "
                    + "site could send one like it. Open the approval page and approve from there; a script approves with "
                    + "`switchboard demo approve CODE --as PERSON`."), status: .forbidden)
        }
        return nil
    }

    private func fromOwnPage(_ referer: String?) -> Bool {
        guard let referer else { return false }
        return origins.contains { referer.lowercased().hasPrefix($0 + "/") }
    }
}

extension HTTPRequest {
    /// Who sent the request, for limits per client: the peer's address
    /// without its port (a new connection per try is the same client), or
    /// "unknown". Headers such as `X-Forwarded-For` are anyone's to write,
    /// so they are not read.
    var client: String {
        switch remoteAddress {
        case .ip4(let address, port: _), .ip6(let address, port: _): address
        case .unix(let path): "unix:" + path
        case nil: "unknown"
        }
    }
}
