import Foundation

/// How people in a room reach a ``DemoServer`` that is not theirs: another
/// address of this machine it also listens on (its Wi-Fi address), and the
/// address its pages are announced at (`verification_uri`,
/// `verification_uri_complete`, and so the QR code). Clients of the
/// provider keep using its loopback address, its issuer.
///
/// On the other address the server answers the OAuth and approval pages but
/// not `/api/`: approving by API, expiring codes, forgetting people and
/// changing the switches stay with this machine.
public struct PublicAccess: Sendable, Equatable {
    /// An IP address of this machine to listen on besides loopback; nil
    /// when something else (a tunnel, a proxy) forwards to loopback.
    public let listen: String?
    /// The base URL people open, `scheme://host[:port]`; nil means
    /// `http://listen:port`.
    public let url: URL?

    /// Checks both; the error names the option (`--listen`, `--public-url`)
    /// and says what is wrong.
    public init(listen: String?, url: String?) throws(DemoError) {
        guard listen != nil || url != nil else { throw .badPublicAccess("give --listen ADDRESS, --public-url URL, or both") }
        if let listen { try Self.check(listen: listen) }
        self.listen = listen.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
        self.url = try url.map(Self.checked(url:))
    }

    /// The base URL people open when the server listens at `port`.
    func base(port: UInt16) -> URL? {
        if let url { return url }
        guard let listen else { return nil }
        return URL(string: "http://\(listen.contains(":") ? "[\(listen)]" : listen):\(port)")
    }

    private static func check(listen: String) throws(DemoError) {
        let bare = listen.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr(), v6 = in6_addr()
        let isV4 = inet_pton(AF_INET, bare, &v4) == 1, isV6 = inet_pton(AF_INET6, bare, &v6) == 1
        guard isV4 || isV6 else {
            throw .badPublicAccess("--listen \(listen.displayed) is not an IP address; give one of this machine's addresses, such as its Wi-Fi address (ip -brief address lists them)")
        }
        if bare == "0.0.0.0" || bare == "::" {
            throw .badPublicAccess("--listen \(bare) would listen on every address; give the one address people should reach (ip -brief address lists them)")
        }
        if bare == "127.0.0.1" || bare == "::1" {
            throw .badPublicAccess("--listen \(bare): the demo provider always listens on loopback; give an address others can reach")
        }
    }

    private static func checked(url text: String) throws(DemoError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw .badPublicAccess("--public-url \(text.displayed) is not an http or https URL with a host")
        }
        guard url.user == nil, url.password == nil, url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/" else {
            throw .badPublicAccess("--public-url \(text.displayed): give only scheme://host[:port] (the pages live at its root)")
        }
        // Foundation hands the host back decoded: a % anywhere is refused as it was written.
        if text.contains("%") { throw .badPublicAccess("--public-url \(text.displayed): write the host as it is, without percent-encoding") }
        if let problem = hostProblem(host) { throw .badPublicAccess("--public-url \(text.displayed): \(problem)") }
        if let port = url.port, !(1...65_535).contains(port) {
            throw .badPublicAccess("--public-url \(text.displayed): the port must be 1 to 65535")
        }
        let trimmed = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        return URL(string: trimmed) ?? url
    }
}

extension PublicAccess {
    /// Why `host` cannot be a public URL's host, or nil: an IP address, or
    /// a DNS name of at most 253 characters in labels of letters, digits
    /// and inner hyphens, at most 63 each (no percent-encoding: a phone's
    /// browser and the QR code must read it as it is written).
    static func hostProblem(_ host: String) -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 { return nil }
        guard host.utf8.count <= 253 else { return "the host name is longer than 253 characters" }
        let labels = (host.hasSuffix(".") ? String(host.dropLast()) : host).split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let ok = !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
            if !ok { return "the host must be an IP address or a name of letters, digits, hyphens and dots (labels of at most 63)" }
        }
        return nil
    }
}

extension String {
    /// Printable ASCII as it is, anything else as `?`: command-line text
    /// quoted back in an error.
    fileprivate var displayed: String {
        String(String.UnicodeScalarView(unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}
