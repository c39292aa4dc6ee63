import Foundation
import TestSupport

/// Two network namespaces joined by a veth pair, made by the test (as root,
/// with iproute2's `ip`): the room's machine at `10.203.0.1` (`host`) and a
/// phone at `10.203.0.2` (`phone`), each with its own loopback. Nothing of
/// the machine's own network is touched, and traffic between them never
/// leaves it. `remove()` deletes both (and with them the veth pair).
struct NetworkNamespaces: Sendable {
    let host: String
    let phone: String
    let hostAddress = "10.203.0.1"
    let phoneAddress = "10.203.0.2"
    /// iproute2's `ip`.
    let ip: String

    /// Makes the pair; throws with what went wrong and what is needed.
    static func make() async throws -> NetworkNamespaces {
        guard geteuid() == 0 else {
            throw NamespaceError("this test makes network namespaces, which needs root; the tests run as root here and in CI (.ci/run)")
        }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: FileManager.default.isExecutableFile) else {
            throw NamespaceError("iproute2's ip is not installed (.ci/run installs it)")
        }
        let tag = String(UUID().uuidString.filter(\.isHexDigit).prefix(8)).lowercased()
        let namespaces = NetworkNamespaces(host: "sb-room-\(tag)", phone: "sb-phone-\(tag)", ip: ip)
        let steps: [[String]] = [
            ["netns", "add", namespaces.host],
            ["netns", "add", namespaces.phone],
            // Interface names are at most 15 characters.
            ["link", "add", "sbh\(tag)", "netns", namespaces.host, "type", "veth", "peer", "name", "sbp\(tag)", "netns", namespaces.phone],
            ["-n", namespaces.host, "address", "add", "\(namespaces.hostAddress)/24", "dev", "sbh\(tag)"],
            ["-n", namespaces.phone, "address", "add", "\(namespaces.phoneAddress)/24", "dev", "sbp\(tag)"],
            ["-n", namespaces.host, "link", "set", "sbh\(tag)", "up"],
            ["-n", namespaces.phone, "link", "set", "sbp\(tag)", "up"],
            ["-n", namespaces.host, "link", "set", "lo", "up"],
            ["-n", namespaces.phone, "link", "set", "lo", "up"],
        ]
        for step in steps {
            let result = try await runProcess(ip, step, timeout: 30)
            guard result.status == 0 else {
                await namespaces.remove()
                throw NamespaceError("cannot make the test's network namespaces: ip \(step.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
            }
        }
        return namespaces
    }

    /// `ip netns exec NAMESPACE` and the command, as the arguments of `ip`.
    func inside(_ namespace: String, _ command: [String]) -> [String] { ["netns", "exec", namespace] + command }

    /// Deletes both namespaces (what is left of them).
    func remove() async {
        for namespace in [host, phone] { _ = try? await runProcess(ip, ["netns", "delete", namespace], timeout: 30) }
    }
}

struct NamespaceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
