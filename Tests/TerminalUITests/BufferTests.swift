import Testing
@testable import TerminalUI

@Suite struct BufferTests {
    @Test func writesClipAtTheEdge() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("abcdefg", x: 1, y: 0) == 4)
        #expect(buffer.lines == [" abcd"])
    }
}
