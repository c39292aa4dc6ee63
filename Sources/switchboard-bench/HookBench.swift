import Foundation
import ProcessKit
import Store
import SwitchboardCore

/// `switchboard-bench hook [--prompts N] [--runs N]`: what the shell hook
/// costs a prompt, in real bash, zsh and fish, measured as whole shell
/// processes: one that calls the hook N times (as N prompts would) less one
/// that calls it once, divided by N − 1 (10 N unchanged prompts; N/10 of the others).
///
/// - unchanged: nothing changed between prompts (goal: at most 2 ms, on the
///   file store: the hook reads the stamp and tests folders, no process);
/// - changed: the store's stamp is new at every prompt (as after a switch),
///   so each prompt runs `switchboard hook-env` once (goal: no more than a
///   `switchboard status` process, measured beside it);
/// - cd: each prompt is in another repository (a rule looked for with git).
enum HookBench {
    static func run(_ arguments: [String]) throws {
        let prompts = Int(value(of: "--prompts", in: arguments) ?? "") ?? 200
        let runs = Int(value(of: "--runs", in: arguments) ?? "") ?? 5
        let tools = try TUIBench.Tools()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-hook-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try prepare(folder)
        print("switchboard hook, per prompt (\(tools.configuration) build; \(prompts) prompts a run, median of \(runs) runs)")
        var rows = [["shell", "unchanged", "stamp new", "cd between repos", "goal (unchanged)"]]
        var met = true
        for shell in ["bash", "zsh", "fish"] {
            let candidates: [String] = ["/usr/bin/" + shell, "/bin/" + shell]
            guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
                rows.append([shell, "not installed", "", "", ""])
                continue
            }
            let hook = try ChildProcess.run(tools.switchboard, ["hook", shell], environment: environment).stdout
            func perPrompt(_ step: String, count: Int) throws -> Double {
                let many = try medianOf(runs: runs) { try shellSeconds(path, shell: shell, hook: hook, step: step, prompts: count, environment: environment) }
                let one = try medianOf(runs: runs) { try shellSeconds(path, shell: shell, hook: hook, step: step, prompts: 1, environment: environment) }
                return max(0, many - one) / Double(count - 1)
            }
            // Many unchanged prompts a run, so that a shell's start-up varying does not hide their cost.
            let unchanged = try perPrompt("", count: prompts * 10)
            let stamp = try perPrompt(shell == "fish" ? "echo $i > $STAMP" : "echo $i > \"$STAMP\"", count: max(2, prompts / 10))
            let cd = try perPrompt(shell == "fish" ? "cd $HOME/repo(math $i % 2)" : "cd \"$HOME/repo$((i % 2))\"", count: max(2, prompts / 10))
            met = met && unchanged <= 0.002
            rows.append([shell, milliseconds(unchanged), milliseconds(stamp), milliseconds(cd), "2 ms: \(verdict(unchanged <= 0.002))"])
        }
        printTable(rows)
        let status = try medianOf(runs: runs) {
            let start = now()
            _ = try ChildProcess.run(tools.switchboard, ["status"], environment: environment)
            return now() - start
        }
        print("switchboard status, one process: \(milliseconds(status))")
        print("unchanged prompts within 2 ms: \(met ? "met" : "MISSED")")
    }

    /// A home with two accounts, two git repositories, and the environment of a shell there.
    private static func prepare(_ folder: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        let database = try AppDatabase(path: folder + "/switchboard.sqlite")
        let session = SessionKey("bench")!
        for (subject, name, email) in [("1", "Ada Lovelace", "ada@example.org"), ("2", "Grace Hopper", "grace@example.org")] {
            _ = try database.signIn(
                LinkedIdentity(identity: Identity(provider: "demo", subject: subject), displayName: name, email: email, emailVerified: true),
                mode: .signIn, session: session)
        }
        var environment = ProcessInfo.processInfo.environment.filter { ["PATH", "LANG", "TERM"].contains($0.key) }
        environment["HOME"] = folder + "/home"
        environment["SWITCHBOARD_DATABASE"] = folder + "/switchboard.sqlite"
        environment["SWITCHBOARD_SESSION"] = "bench"
        environment["XDG_CONFIG_HOME"] = folder + "/config"
        environment["XDG_DATA_HOME"] = folder + "/share"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = folder + "/gitconfig"
        environment["STAMP"] = ChangeSignal.name(forDatabase: folder + "/switchboard.sqlite")
        for repository in ["repo0", "repo1"] {
            _ = try ChildProcess.run("/usr/bin/git", ["init", "-q", folder + "/home/" + repository], environment: environment)
        }
        return environment
    }

    /// Seconds a shell takes to evaluate the hook and make `prompts` prompts, each after `step`.
    private static func shellSeconds(_ path: String, shell: String, hook: String, step: String, prompts: Int, environment: [String: String]) throws -> Double {
        let script: String
        switch shell {
        case "fish": script = hook + "cd $HOME\nfor i in (seq \(prompts))\n\(step)\nemit fish_prompt\nend\n"
        case "zsh": script = hook + "cd $HOME\nfor i in {1..\(prompts)}; do\n\(step)\n_switchboard_hook\ndone\n"
        default: script = hook + "cd $HOME\nfor ((i = 1; i <= \(prompts); i++)); do\n\(step)\n_switchboard_hook\ndone\n"
        }
        let arguments = shell == "fish" ? ["--no-config", "-c", script] : shell == "zsh" ? ["-f", "-c", script] : ["--norc", "--noprofile", "-c", script]
        let start = now()
        let result = try ChildProcess.run(path, arguments, environment: environment)
        guard result.status == 0 else { throw BenchError("\(shell) failed: \(result.stderr)") }
        return now() - start
    }

    private static func medianOf(runs: Int, _ body: () throws -> Double) throws -> Double {
        var values: [Double] = []
        for _ in 0..<max(1, runs) { values.append(try body()) }
        return values.sorted()[values.count / 2]
    }

    private static func milliseconds(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }

    private static func value(of option: String, in arguments: [String]) -> String? {
        arguments.firstIndex(of: option).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
}
