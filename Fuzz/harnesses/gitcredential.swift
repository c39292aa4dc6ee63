/// git's credential helper protocol as the helper reads it: any bytes on
/// standard input, read whole and a line at a time (as the command does,
/// with the limits it applies), then the host checked and an answer made
/// from what was read. What is read never holds a NUL, a checked host holds
/// only host characters, and an answer is whole lines or nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitCredential(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let whole = GitCredentialReader.read(bytes)
    // The same input a line at a time, each line cut at a limit chosen by its first byte.
    var reader = GitCredentialReader()
    var rest = bytes[...]
    var stepwise: GitCredentialReader.Step = .more
    while !rest.isEmpty, stepwise == .more {
        let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        let line = rest[..<end]
        let limit = line.first.map { Int($0) * 300 } ?? GitCredentialReader.lineLimit
        stepwise = reader.take(line.prefix(min(limit, GitCredentialReader.lineLimit + 1)), truncated: line.count > GitCredentialReader.lineLimit + 1)
        rest = end < rest.endIndex ? rest[(end + 1)...] : rest[end...]
    }
    guard case .success(let request) = whole else { return 0 }
    for value in [request.scheme, request.host, request.path, request.username, request.password].compactMap({ $0 }) {
        precondition(!value.utf8.contains(0), "a NUL was read")
        precondition(!value.utf8.contains(0x0A), "a line break was read into a value")
    }
    if let host = request.checkedHost {
        precondition(host.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }, "a checked host holds \(host.debugDescription)")
    }
    let answer = GitCredentialAnswer(username: request.username ?? "", password: request.password ?? "", expiresAt: 1)
    if let text = answer.text {
        precondition(text.split(separator: "\n").count == 3 && text.hasSuffix("\n"), "an answer of other lines: \(text.debugDescription)")
    }
    return 0
}
