import FlyingFox
import Foundation
import Synchronization

/// Everything a request handler needs once the server knows its own address.
struct Provider: Sendable {
    let store: CodeStore
    let signer: Signer
    /// The base URL without a trailing slash; also the OIDC issuer.
    let issuer: String
    /// The base URL of the pages people open, without a trailing slash:
    /// `issuer`, unless the server was started with ``PublicAccess``.
    let pages: String
    /// The checks of `Host`, `Origin` and content type, made from `issuer`
    /// and the public addresses.
    let checks: RequestChecks

    /// `listen` is the other address the server listens on, as `host:port`.
    init(store: CodeStore, signer: Signer, issuer: String, publicURL: URL? = nil, listen: String? = nil) {
        self.store = store
        self.signer = signer
        self.issuer = issuer
        pages = publicURL?.absoluteString ?? issuer
        checks = RequestChecks(issuer: issuer, publicURL: publicURL, listen: listen)
    }

    /// Dispatches a request to its endpoint, once `checks` let it through.
    /// On the public address (`isPublic`) the API is refused.
    func handle(_ request: HTTPRequest, isPublic: Bool = false) async -> HTTPResponse {
        if let refusal = checks.refusal(request) { return refusal }
        if isPublic && request.path.hasPrefix("/api/") {
            return Reply.error("forbidden", "the demo provider's API answers only on this machine's loopback address", status: .forbidden)
        }
        return await route(request)
    }

    private func route(_ request: HTTPRequest) async -> HTTPResponse {
        switch "\(request.method.rawValue) \(request.path)" {
        case "GET /.well-known/openid-configuration": discovery()
        case "POST /device_authorization": await deviceAuthorization(request)
        case "POST /token": await token(request)
        case "GET /userinfo", "POST /userinfo": await userInfo(request)
        case "GET /jwks": jwks()
        case "POST /revoke": await revoke(request)
        case "GET /device": await approvalPage(request)
        case "POST /device": await submitApproval(request)
        case "POST /api/approve": await apiApprove(request)
        case "POST /api/expire": await apiExpire(request)
        case "POST /api/forget": await apiForget(request)
        case "GET /api/people": await apiPeople()
        case "GET /api/settings": await apiSettings()
        case "POST /api/settings": await apiUpdateSettings(request)
        default: unrouted(request)
        }
    }

    private func unrouted(_ request: HTTPRequest) -> HTTPResponse {
        let known: [String: String] = [
            "/.well-known/openid-configuration": "GET", "/device_authorization": "POST", "/token": "POST",
            "/userinfo": "GET, POST", "/jwks": "GET", "/revoke": "POST", "/device": "GET, POST",
            "/api/approve": "POST", "/api/expire": "POST", "/api/forget": "POST", "/api/people": "GET",
            "/api/settings": "GET, POST",
        ]
        guard let allowed = known[request.path] else {
            return Reply.error("not_found", "no such endpoint", status: .notFound)
        }
        var response = Reply.error("method_not_allowed", "use \(allowed)", status: .methodNotAllowed)
        response.headers[HTTPHeader("Allow")] = allowed
        return response
    }
}

/// The provider of a running server, set once it listens and cleared when it stops.
final class ProviderSlot: Sendable {
    private let provider = Mutex<Provider?>(nil)

    /// The provider, if the server is listening.
    var current: Provider? { provider.withLock { $0 } }

    /// Installs or clears the provider.
    func set(_ newValue: Provider?) { provider.withLock { $0 = newValue } }
}

/// FlyingFox's entry point: hands every request to the current provider.
struct Router: HTTPHandler {
    let slot: ProviderSlot
    /// Whether this listener is the public address's (no API there).
    var isPublic = false

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let provider = slot.current else {
            return Reply.error("temporarily_unavailable", "the server is starting or stopping",
                               status: HTTPStatusCode(503, phrase: "Service Unavailable"))
        }
        return await provider.handle(request, isPublic: isPublic)
    }
}
