import Foundation
import ProcessKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("spawnChild: the descriptors a child is given")
struct SpawnTests {
    @Test("descriptors after 2 are as asked (a socket on 3 and 4, as a browser's DevTools pipe), and the next one is not inherited")
    func extraDescriptors() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        // The child's end above the descriptors it is given, so that setting up 3 cannot overwrite it before 4 copies it.
        let theirs = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        try #require(theirs >= 10)
        let script = #"read -r line <&3; if [ -e /proc/self/fd/5 ]; then five=open; else five=closed; fi; echo "got $line, 5 $five" >&4"#
        let (pid, _) = try spawnChild(
            "/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
            descriptors: [.open("/dev/null", O_RDONLY), .open("/dev/null", O_WRONLY), .same(2), .same(theirs), .same(theirs)])
        close(theirs)
        let line = "hello\n"
        #expect(write(pair[0], line, line.utf8.count) == line.utf8.count)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        #expect(exitCode(fromWaitStatus: status) == 0)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(pair[0], &buffer, buffer.count)
        try #require(count > 0)
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "got hello, 5 closed\n")
    }
}
