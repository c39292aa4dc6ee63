import Foundation
import ProcessKit
import Synchronization
import Testing
import TestBasics
import TestSupport

/// The real git and kubectl, as processes, on loopback: each asks the
/// built `switchboard` (git through its credential helper, kubectl through
/// its exec plugin) and so acts as whoever the terminal it runs in chose.
@Suite("git and kubectl act as whoever the terminal chose")
struct GitAndKubectlEndToEndTests {
    static let switchboard = builtProduct("switchboard")

    /// A home folder whose `.gitconfig` names someone else, and the
    /// environment the tools run with: the built switchboard on `PATH`, no
    /// prompts, this rig's database and configuration.
    private static func environment(_ rig: ToolRig, session: String?) throws -> [String: String] {
        let home = rig.cli.folder.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let gitconfig = home + "/.gitconfig"
        if !FileManager.default.fileExists(atPath: gitconfig) {
            try "[user]\n\tname = Last Person\n\temail = last@example.org\n[init]\n\tdefaultBranch = main\n"
                .write(toFile: gitconfig, atomically: true, encoding: .utf8)
        }
        let folder = URL(fileURLWithPath: switchboard).deletingLastPathComponent().path
        return rig.environment(session: session, [
            "HOME": home, "PATH": "\(folder):/usr/bin:/bin", "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
        ])
    }

    /// Runs `script` under sh as a login on a fresh pseudo-terminal (its own session); returns what showed and the status.
    private static func inTerminal(_ script: String, environment: [String: String]) async throws -> (output: String, status: Int32) {
        try await offThePool {
            let process = try TerminalProcess("/bin/sh", arguments: ["-c", script], environment: environment)
            let status = process.finish(timeout: 60)
            return (String(decoding: process.output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"), exitCode(fromWaitStatus: status))
        }
    }

    private static func git(_ arguments: String..., environment: [String: String]) async throws -> ProcessResult {
        try await runProcess("/usr/bin/git", arguments, environment: environment, timeout: 60)
    }

    @Test("git credential fill through the helper setup-git configured, in two terminals: each gets its own person's token; a push over http as the active person works, and fails after sign-out; a commit under exec carries the person")
    func git() async throws {
        let issuer = Mutex<URL?>(nil)
        let gitRoot = TemporaryFolder()
        defer { gitRoot.remove() }
        let server = try await GitHTTPServer(root: gitRoot.path) { password in
            guard let base = issuer.withLock({ $0 }) else { return nil }
            return await DemoCheck(base: base).person(accessToken: password)
        }
        let rig = try await ToolRig(gitServer: server.url)
        issuer.withLock { $0 = rig.base }
        try await rig.signIn([("ada", "left"), ("grace", "right")])
        let environment = try Self.environment(rig, session: nil)
        let setUp = await TestIO(environment: environment).run(["setup-git"])
        #expect(setUp.status == 0 && setUp.stdout.contains("credential.\(server.url.absoluteString).helper: added"), "\(setUp.stdout) \(setUp.stderr)")

        // Two terminals, no session named: each is its own, and git's helper (its input and output pipes) finds it.
        let fill = "printf 'protocol=http\\nhost=127.0.0.1:\(server.url.port!)\\npath=repo.git\\n\\n' | git credential fill"
        async let left = Self.inTerminal("switchboard switch 'Ada Lovelace' >/dev/null && \(fill)", environment: environment)
        async let right = Self.inTerminal("switchboard switch 'Grace Hopper' >/dev/null && \(fill)", environment: environment)
        let (ada, grace) = try await (left, right)
        #expect(ada.status == 0 && grace.status == 0, "\(ada.output)\n\(grace.output)")
        func answer(_ output: String, _ key: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        let adaToken = try #require(answer(ada.output, "password")), graceToken = try #require(answer(grace.output, "password"))
        #expect(answer(ada.output, "username") == "ada" && answer(grace.output, "username") == "grace")
        #expect(adaToken != graceToken)
        #expect(await rig.person(holding: adaToken) == "ada")
        #expect(await rig.person(holding: graceToken) == "grace")

        // A commit made under exec carries Ada, whatever ~/.gitconfig says; the push goes as her.
        let named = try Self.environment(rig, session: "left")
        let work = rig.cli.folder.file("work")
        #expect(try await Self.git("init", "-q", "--bare", gitRoot.path + "/repo.git", environment: named).status == 0)
        #expect(try await Self.git("init", "-q", work, environment: named).status == 0)
        let commit = try await runProcess(Self.switchboard, ["exec", "--", "git", "-C", work, "commit", "-q", "--allow-empty", "-m", "by Ada"],
                                          environment: named, timeout: 60)
        #expect(commit.status == 0, "\(commit.stderr)")
        let author = try await Self.git("-C", work, "log", "-1", "--format=%an <%ae>|%cn <%ce>", environment: named)
        #expect(author.stdout == "Ada Lovelace <ada@demo.switchboard.test>|Ada Lovelace <ada@demo.switchboard.test>\n")
        let remote = server.url.appendingPathComponent("repo.git").absoluteString
        let push = try await Self.git("-C", work, "push", "-q", remote, "HEAD:refs/heads/main", environment: named)
        #expect(push.status == 0, "\(push.stderr)")
        let pushed = try await Self.git("--git-dir", gitRoot.path + "/repo.git", "log", "-1", "--format=%s %ae", "main", environment: named)
        #expect(pushed.stdout == "by Ada ada@demo.switchboard.test\n")
        #expect(server.people.all.contains("ada") && !server.people.all.contains("grace"))

        // Signed out, the helper has nothing for git, and the server refuses.
        #expect(await rig.run("sign-out", session: "left").status == 0)
        #expect(try await Self.git("-C", work, "commit", "-q", "--allow-empty", "-m", "after", environment: named).status == 0)
        let refused = try await Self.git("-C", work, "push", "-q", remote, "HEAD:refs/heads/main", environment: named)
        #expect(refused.status != 0 && refused.stderr.contains("127.0.0.1"), "\(refused.stderr)")
        let after = try await Self.git("--git-dir", gitRoot.path + "/repo.git", "log", "-1", "--format=%s", "main", environment: named)
        #expect(after.stdout == "by Ada\n")
        await server.stop()
        await rig.stop()
    }

    @Test("kubectl get --raw /api against a loopback API server that checks id_tokens with the demo's keys: two terminals, two people, v1 and v1beta1; with nobody chosen, kubectl shows the one line")
    func kubectl() async throws {
        let rig = try await ToolRig()
        try await rig.signIn([("ada", "left"), ("grace", "right")])
        let api = try await KubeAPIServer(issuer: rig.base, folder: rig.cli.folder)
        let environment = try Self.environment(rig, session: nil)
        let runtime = environment.merging(["XDG_RUNTIME_DIR": rig.cli.folder.file("run")]) { $1 }
        let version = try await runProcess("/usr/bin/env", ["kubectl", "version", "--client", "-o", "json"], environment: environment)
        let minor = Int((try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: [String: Any]])?["clientVersion"]?["minor"]
            .flatMap { $0 as? String }?.prefix { $0.isNumber } ?? "") ?? 0
        // kubectl before 1.22 knows only v1beta1.
        let versions = minor >= 22 ? ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"] : Array(repeating: "client.authentication.k8s.io/v1beta1", count: 2)
        // The third counts the plugin's runs in a file and becomes it (exec: the same process, so kubectl is still its parent).
        let runs = rig.cli.folder.file("plugin-runs")
        let plugins = [#"command: switchboard"#, #"command: switchboard"#, #"command: /bin/sh"#]
        let arguments = [#"["kube-credential", "demo"]"#, #"["kube-credential", "demo"]"#,
                         #"["-c", "echo ran >>'\#(runs)'; exec switchboard kube-credential demo"]"#]
        var kubeconfigs: [String] = []
        for (index, apiVersion) in (versions + [versions[0]]).enumerated() {
            let path = rig.cli.folder.file("kubeconfig-\(index)")
            try """
                apiVersion: v1
                kind: Config
                clusters:
                - name: loopback
                  cluster:
                    server: \(api.url.absoluteString)
                    insecure-skip-tls-verify: true
                contexts:
                - name: loopback
                  context:
                    cluster: loopback
                    user: switchboard
                current-context: loopback
                users:
                - name: switchboard
                  user:
                    exec:
                      apiVersion: \(apiVersion)
                      \(plugins[index])
                      args: \(arguments[index])
                      interactiveMode: Never
                """.write(toFile: path, atomically: true, encoding: .utf8)
            kubeconfigs.append(path)
        }
        async let left = Self.inTerminal(
            "switchboard switch 'Ada Lovelace' >/dev/null && kubectl --kubeconfig \(kubeconfigs[0]) get --raw /api", environment: environment)
        async let right = Self.inTerminal(
            "switchboard switch 'Grace Hopper' >/dev/null && kubectl --kubeconfig \(kubeconfigs[1]) get --raw /api", environment: environment)
        // Only kubectl's standard error shows: the plugin's, passed through, and kubectl's own.
        async let nobody = Self.inTerminal("kubectl --kubeconfig \(kubeconfigs[2]) get --raw /api 2>&1 >/dev/null", environment: runtime)
        let (ada, grace, none) = try await (left, right, nobody)
        #expect(ada.status == 0 && ada.output.contains(#""user":"ada@demo.switchboard.test""#), "\(ada.output)")
        #expect(grace.status == 0 && grace.output.contains(#""user":"grace@demo.switchboard.test""#), "\(grace.output)")
        #expect(none.status != 0)
        // kubectl runs the plugin again after a failure, and shows each run's standard error: the line shows once all the same.
        let said = none.output.split(separator: "\n").filter { $0.hasPrefix("switchboard: ") }
        #expect(said.count == 1 && said.first?.contains("has nobody chosen, so kubectl gets no token") == true
                && said.first?.hasPrefix("switchboard: terminal pts/") == true, "\(none.output)")
        #expect(none.output.contains("exit code 16"), "\(none.output)")
        // It ran more than once: the line was kept back at least once.
        let ran = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n").count
        #expect(ran >= 2, "the plugin ran \(ran) times")
        await api.stop()
        await rig.stop()
    }

    @Test("with the hook in an interactive bash on a terminal, no eval: switch to Grace, commit, push; switch to Zoë, commit, push: each commit carries its person and each push their token; in a tree whose allowed .switchboard names Ada, git push and kubectl act as Ada")
    func hookedShell() async throws {
        let issuer = Mutex<URL?>(nil)
        let gitRoot = TemporaryFolder()
        defer { gitRoot.remove() }
        let server = try await GitHTTPServer(root: gitRoot.path) { password in
            guard let base = issuer.withLock({ $0 }) else { return nil }
            return await DemoCheck(base: base).person(accessToken: password)
        }
        let rig = try await ToolRig(gitServer: server.url)
        issuer.withLock { $0 = rig.base }
        try await rig.signIn([("ada", "setup-1"), ("grace", "setup-2"), ("zoe", "setup-3")])
        let api = try await KubeAPIServer(issuer: rig.base, folder: rig.cli.folder)
        var environment = try Self.environment(rig, session: nil)
        environment["TERM"] = "dumb"
        #expect(await TestIO(environment: environment).run(["setup-git"]).status == 0)
        let home = try #require(environment["HOME"])
        let remote = server.url.appendingPathComponent("repo.git").absoluteString
        #expect(try await Self.git("init", "-q", "--bare", gitRoot.path + "/repo.git", environment: environment).status == 0)
        for tree in ["work", "ada-tree"] {
            #expect(try await Self.git("init", "-q", home + "/" + tree, environment: environment).status == 0)
        }
        try "account = \"ada\"\n".write(toFile: home + "/ada-tree/.switchboard", atomically: true, encoding: .utf8)
        let kubeconfig = rig.cli.folder.file("kubeconfig")
        try """
            apiVersion: v1
            kind: Config
            clusters:
            - name: loopback
              cluster: {server: "\(api.url.absoluteString)", insecure-skip-tls-verify: true}
            contexts:
            - name: loopback
              context: {cluster: loopback, user: switchboard}
            current-context: loopback
            users:
            - name: switchboard
              user:
                exec: {apiVersion: client.authentication.k8s.io/v1, command: switchboard, args: ["kube-credential", "demo"], interactiveMode: Never}
            """.write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        let rc = rig.cli.folder.file("bashrc")
        let hook = try await runProcess(Self.switchboard, ["hook", "bash"], environment: environment)
        try (hook.stdout + "PS1='$ '\n").write(toFile: rc, atomically: true, encoding: .utf8)
        let shellEnvironment = environment
        let pushed = try await offThePool { () throws -> String in
            let shell = try TerminalProcess("/bin/bash", arguments: ["--rcfile", rc, "-i"], environment: shellEnvironment)
            var step = 0
            func run(_ line: String) throws {
                step += 1
                // The marker is worked out by the shell, so the typed line does not show it.
                shell.send(Array("\(line); echo \"done-$((\(step) * 7))\"\n".utf8))
                guard shell.wait(for: Array("done-\(step * 7)".utf8), timeout: 60) != nil else {
                    throw HookedShellStuck("no answer to \(line): \(String(decoding: shell.output, as: UTF8.self))")
                }
            }
            let push = "git push -q \(remote) HEAD:refs/heads/main"
            try run("switchboard switch grace > /dev/null")
            try run("cd ~/work && git commit -q --allow-empty -m by-grace && \(push)")
            try run("switchboard switch zoe > /dev/null")
            try run("git commit -q --allow-empty -m by-zoe && git push -q -f \(remote) HEAD:refs/heads/zoe")
            try run("cd ~/ada-tree && switchboard allow > /dev/null")
            try run("git commit -q --allow-empty -m by-ada-here && git push -q -f \(remote) HEAD:refs/heads/ada")
            try run("kubectl --kubeconfig \(kubeconfig) get --raw /api > ~/kube-as.json")
            // The hook acts at the prompt, as direnv's does: out of the tree, the next line is Zoë's again.
            try run("cd ~/work")
            try run("git commit -q --allow-empty -m by-zoe-again && git push -q -f \(remote) HEAD:refs/heads/zoe")
            shell.send(Array("exit\n".utf8))
            _ = shell.finish(timeout: 30)
            return String(decoding: shell.output, as: UTF8.self)
        }
        func log(_ branch: String) async throws -> String {
            try await Self.git("--git-dir", gitRoot.path + "/repo.git", "log", "-1", "--format=%s %an <%ae>", branch, environment: environment).stdout
        }
        #expect(try await log("main") == "by-grace Grace Hopper <grace@demo.switchboard.test>\n", "\(pushed)")
        #expect(try await log("ada") == "by-ada-here Ada Lovelace <ada@demo.switchboard.test>\n", "\(pushed)")
        let zoe = try await log("zoe")
        #expect(zoe == "by-zoe-again Zoë Ångström <zoe@demo.switchboard.test>\n", "\(zoe)")
        // Each push went with its person's token, in order.
        let people = server.people.all.compactMap { $0 }
        var runs: [String] = []
        for person in people where runs.last != person { runs.append(person) }
        #expect(runs == ["grace", "zoe", "ada", "zoe"], "\(people)")
        let kube = (try? String(contentsOfFile: home + "/kube-as.json", encoding: .utf8)) ?? ""
        #expect(kube.contains(#""user":"ada@demo.switchboard.test""#), "\(kube) \(pushed)")
        #expect(pushed.contains("Ada Lovelace here (~/ada-tree/.switchboard line 1)") && pushed.contains("Zoë Ångström here (this terminal's choice)"), "\(pushed)")
        await api.stop()
        await server.stop()
        await rig.stop()
    }

    @Test("hostile input on the helper's standard input, to the built program: no crash, no token")
    func hostileInput() async throws {
        let rig = try await ToolRig(gitServer: URL(string: "http://127.0.0.1:9418")!)
        try await rig.signIn(as: "ada", session: "left")
        let environment = try Self.environment(rig, session: "left")
        let inputs = [
            "protocol=http\nhost=127.0.0.1:9418\npath=" + String(repeating: "p", count: 200_000) + "\n\n",
            "protocol=http\nhost=127.0.0.1:9418\u{0}\n\n",
            "protocol=http\nhost=127.0.0.1:9418\u{1B}]52;c;eA==\u{7}\n\n",
            String(repeating: "unknown[]=\(String(repeating: "x", count: 900))\n", count: 1_200) + "protocol=http\nhost=127.0.0.1:9418\n\n",
        ]
        for input in inputs {
            let result = try await runProcess(Self.switchboard, ["git-credential", "get"], environment: environment, timeout: 60, input: input)
            #expect(result.status == 0 || result.status == 64, "\(result.status): \(result.stderr)")
            #expect(!result.stdout.contains("password"))
        }
        await rig.stop()
    }
}

/// A line typed into the hooked shell that got no answer.
private struct HookedShellStuck: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
