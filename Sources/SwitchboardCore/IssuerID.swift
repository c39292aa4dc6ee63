extension ProviderID {
    /// The provider of identities from an OpenID Connect issuer named by
    /// its URL alone (`sign-in --issuer`): the whole issuer, normalised as
    /// `scheme://host[:port]path` with the scheme and host in lower case, the
    /// port only when it is not the scheme's default, and the path without
    /// a trailing slash, so that two issuers on one host (other ports or
    /// paths) are two providers. Nil for text that is not an http(s) URL
    /// with a host, or that carries a user, query or fragment.
    public init?(issuer text: String) {
        guard let (schemeText, rest) = Self.splitScheme(text) else { return nil }
        let scheme = schemeText.lowercased()
        guard scheme == "https" || scheme == "http" else { return nil }
        guard !rest.contains("?"), !rest.contains("#") else { return nil }
        let authority = rest.prefix { $0 != "/" }
        var path = rest.dropFirst(authority.count)
        while path.hasSuffix("/") { path = path.dropLast() }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host = Substring(authority), port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[colon...]
        }
        if !port.isEmpty {
            port = port.dropFirst()  // the colon
            guard port.hasPrefix(":") == false, !port.isEmpty, port.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            while port.count > 1 && port.hasPrefix("0") { port = port.dropFirst() }
            if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") { port = "" }
        }
        guard !host.isEmpty else { return nil }
        self.init("\(scheme)://\(host.lowercased())\(port.isEmpty ? "" : ":\(port)")\(path)")
    }

    /// `scheme` and what follows `://`, when the text has both.
    static func splitScheme(_ text: String) -> (Substring, Substring)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let after = text[text.index(after: colon)...]
        guard after.hasPrefix("//"), colon > text.startIndex else { return nil }
        return (text[..<colon], after.dropFirst(2))
    }

    /// Whether this provider is an issuer's URL (`init(issuer:)`) rather
    /// than a name.
    public var isIssuer: Bool { rawValue.hasPrefix("https://") || rawValue.hasPrefix("http://") }
}
