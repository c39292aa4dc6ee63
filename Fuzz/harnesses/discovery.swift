import Dispatch
import Foundation

/// OpenID Connect discovery: any bytes as the discovery document of
/// http://127.0.0.1:8628, served by a transport that answers at once.
struct FixedTransport: HTTPTransport {
    let body: Data
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiscovery(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let transport = FixedTransport(body: Data(UnsafeBufferPointer(start: data, count: size)))
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = try? await OIDCDiscovery.fetch(issuer: URL(string: "http://127.0.0.1:8628")!, transport: transport)
        done.signal()
    }
    done.wait()
    return 0
}
