import DeviceFlow
import Foundation
import SwitchboardCore

/// A git server a provider's access tokens are good for: a scheme and a
/// host with its port, as git names them to a credential helper.
public struct GitServer: Hashable, Sendable, CustomStringConvertible {
    /// `https`, or `http` for a server on this machine's loopback interface.
    public let scheme: String
    /// The host, lower-cased (an IPv6 address in brackets).
    public let host: String
    /// The port, nil when it is the scheme's own (443, 80).
    public let port: Int?

    /// A server from a URL's scheme, host and port; nil unless it is https,
    /// or http to a loopback host (a token never crosses a network in the clear).
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            EndpointPolicy.problem(with: url, as: "git server") == nil
        else { return nil }
        self.init(scheme: scheme, host: host, port: url.port)
    }

    /// The server git names as `protocol` and `host` (`host[:port]`); nil
    /// when they are not a server a token may be sent to: not https (or
    /// http on loopback), or a host that is not a host.
    public init?(scheme: String, hostAndPort: String) {
        var host = Substring(hostAndPort), port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()) else { return nil }
                port = number
            } else if !after.isEmpty { return nil }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty, port.map({ (1...65_535).contains($0) }) ?? true else { return nil }
        let scheme = scheme.lowercased()
        guard scheme == "https" || (scheme == "http" && EndpointPolicy.isLoopback(String(host))) else { return nil }
        self.init(scheme: scheme, host: String(host), port: port)
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host.lowercased()
        let standard = scheme == "https" ? 443 : 80
        self.port = port == standard ? nil : port
    }

    /// `https://host[:port]`: the URL git's `credential.<url>.*` settings take.
    public var url: String { "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")" }

    public var description: String { url }
}

/// Which git servers take which provider's tokens.
public enum GitServers {
    /// The servers `settings`' access tokens are good for: GitHub's
    /// (github.com and gist.github.com), a GitLab's host, the demo
    /// provider's issuer, and whatever `git_hosts` adds (the only ones of
    /// an OpenID Connect issuer, Google or Microsoft).
    public static func of(_ settings: ProviderSettings) -> [GitServer] {
        var urls: [URL] = []
        switch settings.kind {
        case .github: urls = [URL(string: "https://github.com")!, URL(string: "https://gist.github.com")!]
        case .gitlab: urls = [settings.host ?? settings.issuer ?? URL(string: "https://gitlab.com")!]
        case .demo: urls = [settings.issuer ?? ProviderSettings.demo().issuer!]
        case .oidc, .google, .microsoft: break
        }
        var servers: [GitServer] = []
        for server in (urls + settings.gitHosts).compactMap(GitServer.init) where !servers.contains(server) { servers.append(server) }
        return servers
    }

    /// The server a request names, when a token may be given for it.
    public static func server(of request: GitCredentialRequest) -> GitServer? {
        guard let scheme = request.scheme, let host = request.checkedHost else { return nil }
        return GitServer(scheme: scheme, hostAndPort: host)
    }

    /// The providers among `providers` whose tokens `server` takes, in their order.
    public static func providers(serving server: GitServer, among providers: [ProviderSettings]) -> [ProviderID] {
        providers.filter { of($0).contains(server) }.map(\.id)
    }
}

extension GitCredentialAnswer {
    /// The username to give with a `kind` provider's access token: GitLab
    /// takes OAuth tokens only as `oauth2`; elsewhere the person's `login`
    /// when it is known (GitHub takes any non-empty name with a token),
    /// else `x-access-token`.
    public static func username(kind: ProviderKind, login: String?) -> String {
        if kind == .gitlab { return "oauth2" }
        if let login, !login.isEmpty, !login.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) { return login }
        return "x-access-token"
    }
}
