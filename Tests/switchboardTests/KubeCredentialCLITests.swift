import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
@testable import switchboard

/// `switchboard kube-credential` in this process, against a demo provider in this process.
@Suite("switchboard kube-credential")
struct KubeCredentialCLITests {
    static let v1 = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#

    private func credential(_ text: String) throws -> (apiVersion: String?, token: String?, expires: String?) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let status = object["status"] as? [String: Any]
        return (object["apiVersion"] as? String, status?["token"] as? String, status?["expirationTimestamp"] as? String)
    }

    @Test("the apiVersion kubectl asked for, the session's person's stored id_token and its expiry; v1beta1 when none is asked for")
    func versions() async throws {
        let rig = try await ToolRig()
        try await rig.signIn([("ada", "left"), ("grace", "right")])
        let database = try AppDatabase(testing: rig.cli.path)
        let stored = try #require(try database.credential(for: Identity(provider: "demo", subject: "1815"))?.idToken)
        let v1 = await rig.run("kube-credential", "demo", session: "left", environment: ["KUBERNETES_EXEC_INFO": Self.v1])
        #expect(v1.status == 0, "\(v1.stderr)")
        let ada = try credential(v1.stdout)
        #expect(ada.apiVersion == "client.authentication.k8s.io/v1" && ada.token == stored)
        let expires = try #require(ada.expires.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(abs(expires.timeIntervalSinceNow - 3600) < 120)
        // No provider named: the account's one OpenID Connect identity. No KUBERNETES_EXEC_INFO: v1beta1.
        let beta = await rig.run("kube-credential", session: "right")
        let grace = try credential(beta.stdout)
        #expect(grace.apiVersion == "client.authentication.k8s.io/v1beta1" && grace.token != nil && grace.token != stored)
        #expect(!beta.stdout.contains("accessToken") && beta.stdout.hasSuffix("}\n"))
        await rig.stop()
    }

    @Test("an id_token that expires within a minute is refreshed first, and the new one is kept")
    func refreshes() async throws {
        let rig = try await ToolRig()
        // The provider's clock 59 minutes and 30 seconds behind: the id_token it signs now runs out in half a minute.
        rig.clock.setBack(to: Date().addingTimeInterval(-3570))
        try await rig.signIn(as: "ada", session: "left")
        rig.clock.setBack(to: Date())
        let database = try AppDatabase(testing: rig.cli.path)
        let ada = Identity(provider: "demo", subject: "1815")
        let old = try #require(try database.credential(for: ada)?.idToken)
        let result = await rig.run("kube-credential", "demo", session: "left", environment: ["KUBERNETES_EXEC_INFO": Self.v1])
        #expect(result.status == 0, "\(result.stderr)")
        let fresh = try credential(result.stdout)
        #expect(fresh.token != nil && fresh.token != old)
        #expect(try database.credential(for: ada)?.idToken == fresh.token)
        let expires = try #require(fresh.expires.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(expires.timeIntervalSinceNow > 3000)
        await rig.stop()
    }

    @Test("nobody chosen: 16 and one line naming the session and how to choose; a version not written or unreadable info: 64; no such identity: 2")
    func failures() async throws {
        let rig = try await ToolRig()
        let nobody = await rig.run("kube-credential", session: "empty", environment: ["KUBERNETES_EXEC_INFO": Self.v1])
        #expect(nobody.status == 16 && nobody.stdout.isEmpty)
        #expect(nobody.stderr == "switchboard: session empty has nobody chosen, so kubectl gets no token; choose with "
            + "`switchboard switch NAME --session empty`\n")
        // A terminal's own session says "terminal".
        let terminal = TerminalIdentity(name: "pts/41", lifetime: nil)
        let inTerminal = await TestIO(environment: rig.environment(session: nil), terminal: terminal).run(["kube-credential"])
        #expect(inTerminal.status == 16 && inTerminal.stderr.hasPrefix("switchboard: terminal pts/41 has nobody chosen") && inTerminal.stderr.split(separator: "\n").count == 1)
        let machine = await TestIO(environment: rig.environment(session: nil)).run(["kube-credential"])
        #expect(machine.status == 16 && machine.stderr.hasPrefix("switchboard: the machine default (no terminal) has nobody chosen"))
        let alpha = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1alpha1"}"#
        let old = await rig.run("kube-credential", session: "empty", environment: ["KUBERNETES_EXEC_INFO": alpha])
        #expect(old.status == 64 && old.stderr.contains("v1alpha1") && old.stderr.contains("users[].user.exec.apiVersion"))
        let garbage = await rig.run("kube-credential", session: "empty", environment: ["KUBERNETES_EXEC_INFO": "\u{1B}]0;x\u{7}{"])
        #expect(garbage.status == 64 && !garbage.stderr.contains("\u{1B}"))
        let database = try AppDatabase(testing: rig.cli.path)
        try Sample.signIn([Sample.graceGitHub], into: database, session: SessionKey("github-only")!)
        let none = await rig.run("kube-credential", session: "github-only")
        #expect(none.status == 2 && none.stderr.contains("no identity at an OpenID Connect provider"))
        #expect(await rig.run("kube-credential", "google", session: "github-only").status == 2)
        await rig.stop()
    }

    @Test("under kubectl (KUBERNETES_EXEC_INFO set) the nobody-chosen line is said by the first run under a parent process and not by its tries after it, each exiting 16; by hand, or with no runtime folder, every time")
    func saidOncePerKubectlRun() async throws {
        let rig = try await ToolRig()
        let runtime = rig.cli.folder.file("run")
        let underKubectl = ["KUBERNETES_EXEC_INFO": Self.v1, "XDG_RUNTIME_DIR": runtime]
        let line = "switchboard: session empty has nobody chosen, so kubectl gets no token; choose with `switchboard switch NAME --session empty`\n"
        // Both runs have this test process's parent as theirs, as kubectl's two tries have kubectl.
        let first = await rig.run("kube-credential", session: "empty", environment: underKubectl)
        let again = await rig.run("kube-credential", session: "empty", environment: underKubectl)
        #expect(first.status == 16 && first.stderr == line)
        #expect(again.status == 16 && again.stderr.isEmpty && again.stdout.isEmpty, "\(again.stderr)")
        let marks = try FileManager.default.contentsOfDirectory(atPath: runtime + "/switchboard/said")
        #expect(marks.count == 1 && marks[0].hasPrefix("kubectl-"), "\(marks)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: runtime + "/switchboard/said")[.posixPermissions] as? Int)
        #expect(mode == 0o700)
        // By hand: every time.
        for _ in 0..<2 {
            let byHand = await rig.run("kube-credential", session: "empty", environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(byHand.status == 16 && byHand.stderr == line)
        }
        // No runtime folder to remember it in: every time.
        for _ in 0..<2 {
            let nowhere = await rig.run("kube-credential", session: "empty", environment: ["KUBERNETES_EXEC_INFO": Self.v1])
            #expect(nowhere.status == 16 && nowhere.stderr == line)
        }
        await rig.stop()
    }

    @Test("the mark is per parent process and lasts a minute: another parent says it too, and the same parent again after the minute")
    func markPerParent() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let environment = ["KUBERNETES_EXEC_INFO": Self.v1, "XDG_RUNTIME_DIR": folder.path]
        let kubectl = try #require(KubectlOnce(environment: environment, parent: "boot/4242/100"))
        let later = try #require(KubectlOnce(environment: environment, parent: "boot/4242/900"))
        #expect(kubectl.firstToSay())
        #expect(!kubectl.firstToSay())
        // The same id, started later: another process.
        #expect(later.firstToSay())
        #expect(!later.firstToSay())
        #expect(kubectl.firstToSay(now: Date().addingTimeInterval(KubectlOnce.window + 1)))
        #expect(KubectlOnce(environment: ["XDG_RUNTIME_DIR": folder.path], parent: "boot/1/1") == nil)
        #expect(KubectlOnce(environment: ["KUBERNETES_EXEC_INFO": Self.v1], parent: "boot/1/1") == nil)
        #expect(KubectlOnce(environment: ["KUBERNETES_EXEC_INFO": Self.v1, "XDG_RUNTIME_DIR": "relative"], parent: "boot/1/1") == nil)
        #expect(KubectlOnce(environment: environment, parent: nil) == nil)
    }
}
