import DeviceFlow
import Foundation
import SwitchboardCore

/// The demo provider's JSON API, as a client: approving or denying a code
/// as a demo person (`POST /api/approve`), and its switches (`POST
/// /api/settings`). `demo approve` and `demo tour` use it; the server must
/// be one `EndpointPolicy` allows (on loopback, as the API answers only there).
public struct DemoAPI: Sendable {
    public let server: URL
    public let transport: any HTTPTransport

    public init(server: URL, transport: any HTTPTransport) {
        self.server = server
        self.transport = transport
    }

    /// What the server said to an approval or a denial.
    public enum Answer: Hashable, Sendable {
        case approved
        case denied
        case unknownCode
        case unknownPerson
        case expired
        case alreadyUsed
        case tooManyAttempts
        /// Any other answer: the HTTP status and the error code, if any.
        case failed(status: Int, error: String?)

        /// What went wrong, in a few words; nil when it went as asked.
        public var problem: String? {
            switch self {
            case .approved, .denied: nil
            case .unknownCode: "no pending code of that name"
            case .unknownPerson: "no such demo person"
            case .expired: "the code has expired"
            case .alreadyUsed: "the code was already used"
            case .tooManyAttempts: "too many wrong codes; wait a minute"
            case .failed(let status, let error): "the demo provider answered HTTP \(status)\(error.map { " (\($0.displaySafe))" } ?? "")"
            }
        }
    }

    /// Approves `userCode` as `person` (an id or a full name), or denies it.
    /// Throws when the server cannot be reached.
    public func decide(userCode: String, person: String, deny: Bool) async throws(FlowFailure) -> Answer {
        let body = (try? JSONSerialization.data(withJSONObject: ["user_code": userCode, "person": person, "deny": deny])) ?? Data()
        let response = try await post("/api/approve", body)
        let error = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
        switch (response.status, error) {
        case (200, _): return deny ? .denied : .approved
        case (_, "unknown_code"?): return .unknownCode
        case (_, "unknown_person"?): return .unknownPerson
        case (_, "expired_token"?): return .expired
        case (_, "code_already_used"?): return .alreadyUsed
        case (429, _): return .tooManyAttempts
        case (let status, let error): return .failed(status: status, error: error)
        }
    }

    /// Sets the switches for codes issued from now on; nil when done, else why not.
    public func settings(expiresIn: Int, interval: Int, slowDownPolls: Int) async throws(FlowFailure) -> String? {
        let fields: [String: Any] = ["expires_in": expiresIn, "interval": interval, "slow_down_polls": slowDownPolls]
        let response = try await post("/api/settings", (try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
        guard response.status == 200 else {
            let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
            let detail = (object?["error_description"] as? String).map { ": \($0.displaySafe)" } ?? ""
            return "the demo provider refused the settings (HTTP \(response.status))\(detail)"
        }
        return nil
    }

    private func post(_ path: String, _ body: Data) async throws(FlowFailure) -> HTTPResponse {
        guard let url = URL(string: server.absoluteString + path) else { throw .configuration("\(server) is not a URL") }
        try EndpointPolicy.check(url, as: "the demo provider")
        do {
            return try await transport.send(HTTPRequest(
                method: "POST", url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"], body: body))
        } catch {
            throw FlowFailure(error)
        }
    }
}
