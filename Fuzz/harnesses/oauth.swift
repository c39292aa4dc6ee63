import Foundation

/// The OAuth response reader: any body, under the content types providers
/// send (the first byte chooses one), read into fields and numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOAuth(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let types = ["application/json", "application/x-www-form-urlencoded", "text/html", "text/plain", ""]
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let response = HTTPResponse(status: 200, headers: ["content-type": types[Int(data[0]) % types.count]], body: body)
    let fields = OAuthFields(response)
    for key in ["access_token", "expires_in", "interval", "error", "device_code", "user_code"] {
        _ = fields[key]
        _ = try? fields.seconds(key, atMost: 86_400)
    }
    _ = fields.error?.description
    _ = try? checkedFields(response, from: URL(string: "http://127.0.0.1/token")!)
    return 0
}
