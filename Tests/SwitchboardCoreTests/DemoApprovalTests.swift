import SwitchboardCore
import Testing

@Suite("the demo's approve command, as sign-in shows it")
struct DemoApprovalTests {
    @Test("--server only where the demo provider is not at its default address; the code made safe for the terminal")
    func command() {
        #expect(DemoApproval.command(userCode: "WDJB-MJHT", server: "http://127.0.0.1:8628") == "switchboard demo approve WDJB-MJHT")
        #expect(DemoApproval.command(userCode: "WDJB-MJHT", server: "http://127.0.0.1:8628/") == "switchboard demo approve WDJB-MJHT")
        #expect(
            DemoApproval.command(userCode: "WDJB-MJHT", server: "http://127.0.0.1:9000")
                == "switchboard demo approve WDJB-MJHT --server http://127.0.0.1:9000")
        #expect(!DemoApproval.command(userCode: "AB\u{1B}[2JCD", server: DemoApproval.defaultServer).contains("\u{1B}"))
    }
}
