import Foundation
import SwitchboardCore

/// kubectl's exec credential plugin protocol (client-go's
/// `client.authentication.k8s.io`): kubectl says in `KUBERNETES_EXEC_INFO`
/// which version of `ExecCredential` it wants, and reads one back on the
/// plugin's standard output, with the token in `status.token`.
public enum ExecCredential {
    /// The versions of `ExecCredential` this plugin writes.
    public enum Version: String, CaseIterable, Sendable {
        case v1 = "client.authentication.k8s.io/v1"
        case v1beta1 = "client.authentication.k8s.io/v1beta1"
    }

    /// Why `KUBERNETES_EXEC_INFO` could not be used.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not a JSON object of the form kubectl writes, or too long.
        case unreadable(String)
        /// A version this plugin does not write.
        case unsupported(String)

        public var description: String {
            switch self {
            case .unreadable(let why): "KUBERNETES_EXEC_INFO cannot be read: \(why)"
            case .unsupported(let version):
                "kubectl asked for \(version.displaySafe), and switchboard writes "
                    + Version.allCases.map(\.rawValue).joined(separator: " and ") + "; set users[].user.exec.apiVersion to one of them"
            }
        }
    }

    /// The longest `KUBERNETES_EXEC_INFO` read (it holds the cluster's
    /// certificate authority at most): 1 MiB.
    public static let infoLimit = 1 << 20

    /// The version kubectl asked for in `KUBERNETES_EXEC_INFO`; v1beta1
    /// when it is absent or empty, as every kubectl that omits it reads.
    public static func requestedVersion(info: String?) -> Result<Version, Problem> {
        guard let info, !info.isEmpty else { return .success(.v1beta1) }
        guard info.utf8.count <= infoLimit else { return .failure(.unreadable("it is longer than \(infoLimit) bytes")) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(info.utf8))) as? [String: Any] else {
            return .failure(.unreadable("it is not a JSON object"))
        }
        guard object["kind"] as? String == "ExecCredential" else { return .failure(.unreadable("its kind is not ExecCredential")) }
        guard let name = object["apiVersion"] as? String else { return .failure(.unreadable("it names no apiVersion")) }
        guard let version = Version(rawValue: name) else { return .failure(.unsupported(name)) }
        return .success(version)
    }

    /// The `ExecCredential` kubectl reads: `status.token` and, when known,
    /// `status.expirationTimestamp` (RFC 3339, whole seconds, UTC), after
    /// which kubectl asks again. One line of JSON.
    public static func response(_ version: Version, token: String, expiresAt: Date?) -> String {
        var status: [String: String] = ["token": token]
        if let expiresAt { status["expirationTimestamp"] = timestamp(expiresAt) }
        let object: [String: Any] = ["apiVersion": version.rawValue, "kind": "ExecCredential", "spec": [String: Any](), "status": status]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `2024-05-01T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
