import Foundation
import SwitchboardCore

/// Which URLs Switchboard will connect to: https anywhere, plain http only
/// to this machine's loopback interface (127.0.0.0/8, ::1, `localhost`),
/// judged by the URL's parsed host, never by how its text begins. The one
/// check for configuration, command-line flags and discovery results alike,
/// made before any connection.
public enum EndpointPolicy {
    /// Why `url` may not be used, naming it and `what` it is for; nil when it may.
    public static func problem(with url: URL, as what: String) -> String? {
        let shown = url.absoluteString.displaySafe
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return "\(what) \(shown) is not an absolute URL with a host"
        }
        switch scheme {
        case "https": return nil
        case "http" where isLoopback(host): return nil
        case "http": return "\(what) \(shown) must be https (plain http only on 127.0.0.1, ::1 or localhost)"
        default: return "\(what) \(shown) must be https, not \(scheme.displaySafe)"
        }
    }

    /// Throws a configuration failure naming `url` when it may not be used.
    public static func check(_ url: URL, as what: String) throws(FlowFailure) {
        if let problem = problem(with: url, as: what) { throw .configuration(problem) }
    }

    /// Whether `host` (as `URL.host` gives it) is this machine's loopback
    /// interface: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8
    /// written as four decimal numbers.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part).map { $0 <= 255 } == true
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
