import Testing
import ToolCredentials

@Suite("git's credential helper protocol: reading a request")
struct GitCredentialReaderTests {
    private func read(_ text: String) -> Result<GitCredentialRequest, GitCredentialRefusal> {
        GitCredentialReader.read(Array(text.utf8))
    }

    @Test("protocol, host, path, username and password; the blank line ends it; what follows is not read")
    func attributes() throws {
        let request = try read("protocol=https\nhost=github.com\npath=org/repo.git\nusername=ada\npassword=secret\n\nhost=evil.test\n").get()
        #expect(request == GitCredentialRequest(scheme: "https", host: "github.com", path: "org/repo.git", username: "ada", password: "secret"))
    }

    @Test("the end of input ends it as a blank line does; a value may hold '='; the last of a repeated key counts")
    func endOfInput() throws {
        #expect(try read("protocol=http\nhost=127.0.0.1:8080").get() == GitCredentialRequest(scheme: "http", host: "127.0.0.1:8080"))
        #expect(try read("password=a=b=c\n").get().password == "a=b=c")
        #expect(try read("host=a.test\nhost=b.test\n").get().host == "b.test")
        #expect(try read("").get() == GitCredentialRequest())
    }

    @Test("attributes git sends that a helper need not read, unknown ones, lines without a key and CRs are passed over")
    func passedOver() throws {
        let text = "capability[]=authtype\ncapability[]=state\nwwwauth[]=Basic realm=\"x\"\nstate[]=a\npassword_expiry_utc=1\n"
            + "no equals sign\n=value without key\nfuture_attribute=1\nprotocol=https\r\nhost=gitlab.com\r\n\r\nhost=later\n"
        #expect(try read(text).get() == GitCredentialRequest(scheme: "https", host: "gitlab.com"))
    }

    @Test("url= stands for protocol, host, path and user, replacing what came before it")
    func url() throws {
        #expect(try read("host=old.test\nurl=https://ada@github.com:8443/org/repo.git\n").get()
            == GitCredentialRequest(scheme: "https", host: "github.com:8443", path: "org/repo.git", username: "ada"))
        #expect(try read("url=http://127.0.0.1:9/\n").get() == GitCredentialRequest(scheme: "http", host: "127.0.0.1:9"))
        #expect(try read("url=not a url\nhost=x.test\n").get() == GitCredentialRequest(host: "x.test"))
    }

    @Test("url= is read as git reads it: the host ends at /, ? or #, a user before the first @ in it, both percent-decoded", arguments: [
        ("url=https://evil.example#@github.com/", GitCredentialRequest(scheme: "https", host: "evil.example", path: "#@github.com/")),
        ("url=https://evil.example?@github.com/", GitCredentialRequest(scheme: "https", host: "evil.example", path: "?@github.com/")),
        ("url=https://evil.example/@github.com/", GitCredentialRequest(scheme: "https", host: "evil.example", path: "@github.com/")),
        ("url=https://a@b@github.com/x", GitCredentialRequest(scheme: "https", host: "b@github.com", path: "x", username: "a")),
        ("url=https://ada:secret@github.com", GitCredentialRequest(scheme: "https", host: "github.com", username: "ada")),
        ("url=https://a%64a@git%68ub.com/", GitCredentialRequest(scheme: "https", host: "github.com", username: "ada")),
        ("url=https://github.com%2", GitCredentialRequest(scheme: "https", host: "github.com%2")),
    ])
    func urlAsGitReadsIt(text: String, expected: GitCredentialRequest) throws {
        #expect(try read(text + "\n").get() == expected)
    }

    @Test("a line over 64 KiB, a NUL anywhere, or more than 1 MiB in all is refused whole, naming the line")
    func refused() {
        let long = String(repeating: "a", count: GitCredentialReader.lineLimit - 5)
        #expect((try? read("host=\(long)\n").get())?.host?.utf8.count == GitCredentialReader.lineLimit - 5)
        #expect(throws: GitCredentialRefusal.lineTooLong(line: 2)) { try read("protocol=https\nhost=\(long)aaaaaa\n").get() }
        #expect(throws: GitCredentialRefusal.nul(line: 2)) { try read("protocol=https\nhost=github.com\u{0}.evil.test\n").get() }
        #expect(throws: GitCredentialRefusal.nul(line: 1)) { try read("\u{0}\n").get() }
        let many = String(repeating: "x=\(String(repeating: "y", count: 1000))\n", count: 1100)
        #expect(throws: GitCredentialRefusal.inputTooLong) { try read(many).get() }
        var reader = GitCredentialReader()
        #expect(reader.take(Array("host=abc".utf8), truncated: true) == .refused(.lineTooLong(line: 1)))
        #expect(GitCredentialRefusal.nul(line: 3).description.contains("line 3"))
    }

    @Test("a host holding a control character, white space or a character no host has gives no host to answer for",
          arguments: ["github.com\u{1B}[2J", "github.com\t", "git hub.com", "github.com/", "ada@github.com", "", "github.com\u{7F}", "gïthub.com"])
    func hostileHosts(host: String) throws {
        #expect(try read("protocol=https\nhost=\(host)\n").get().checkedHost == nil)
    }

    @Test("ordinary hosts pass as they are")
    func hosts() throws {
        for host in ["github.com", "127.0.0.1:8080", "[::1]:3000", "git_server.example-1.org"] {
            #expect(try read("host=\(host)\n").get().checkedHost == host)
        }
    }
}

@Suite("git's credential helper protocol: the answer")
struct GitCredentialAnswerTests {
    @Test("username, password and the expiry as git reads them")
    func text() {
        #expect(GitCredentialAnswer(username: "ada", password: "tok", expiresAt: 1_700_000_000).text
            == "username=ada\npassword=tok\npassword_expiry_utc=1700000000\n")
        #expect(GitCredentialAnswer(username: "ada", password: "tok").text == "username=ada\npassword=tok\n")
    }

    @Test("a value git would misread is never written: nothing is answered", arguments: ["a\nhost=evil", "a\u{0}b", "a\rb", "", "\u{7F}"])
    func unwritable(value: String) {
        #expect(GitCredentialAnswer(username: value, password: "tok").text == nil)
        #expect(GitCredentialAnswer(username: "ada", password: value).text == nil)
    }

    @Test("GitLab takes OAuth tokens as oauth2; elsewhere the login when it is one, else x-access-token")
    func usernames() {
        #expect(GitCredentialAnswer.username(kind: .gitlab, login: "ada") == "oauth2")
        #expect(GitCredentialAnswer.username(kind: .github, login: "octocat") == "octocat")
        #expect(GitCredentialAnswer.username(kind: .github, login: nil) == "x-access-token")
        #expect(GitCredentialAnswer.username(kind: .demo, login: "a da") == "x-access-token")
        #expect(GitCredentialAnswer.username(kind: .oidc, login: "") == "x-access-token")
    }
}
