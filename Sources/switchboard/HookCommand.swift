import ArgumentParser
import Foundation
import Store
import SwitchboardCore
import ToolCredentials

/// `switchboard hook bash|zsh|fish`: the code a shell's rc file evaluates,
/// as direnv's hook is, so that at each prompt the shell's variables say
/// who this terminal acts as now (see `HookScript`).
struct HookCommand: IOCommand {
    static let configuration = CommandConfiguration(
        commandName: "hook",
        abstract: "Print the shell code that keeps this shell's variables current at every prompt.",
        discussion: """
            Put eval "$(switchboard hook bash)" in ~/.bashrc (zsh: eval "$(switchboard hook zsh)" in ~/.zshrc; fish: \
            switchboard hook fish | source in ~/.config/fish/config.fish). At each prompt the shell then has \
            SWITCHBOARD_ACCOUNT, SWITCHBOARD_ACCOUNT_NAME, GIT_AUTHOR_NAME/EMAIL and GIT_COMMITTER_NAME/EMAIL (unset \
            when nobody) and SWITCHBOARD_PROMPT (the name, for a prompt to show) for who acts here: a trusted directory \
            rule, else the terminal's choice. Tokens never go into the shell this way. When nothing changed the hook \
            runs no process: it reads the store's stamp with the shell's own read; when something did (or on a \
            shared store), it runs switchboard once.
            """)

    @Argument(help: "bash, zsh or fish.")
    var shell: HookShell

    func run(io: CommandIO) async throws {
        io.print(HookScript.text(for: shell, program: HookScript.programPath()), terminator: "")
    }
}

/// The shells the hook is written for.
enum HookShell: String, CaseIterable, ExpressibleByArgument, Sendable {
    case bash, zsh, fish

    var syntax: ShellSyntax { ShellSyntax(rawValue: rawValue)! }
}

/// `switchboard hook-env SHELL`, which the hook runs when something changed:
/// the assignments that bring the shell in line, and on standard error what
/// it should know (a rule found and not trusted, a rule now in force).
struct HookEnvCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "hook-env", abstract: "The assignments the shell hook evaluates (run by the hook).", shouldDisplay: false)

    @OptionGroup var options: CommonOptions

    @Argument(help: "bash, zsh or fish.")
    var shell: HookShell

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let syntax = shell.syntax
        var lines = [syntax.set("SWITCHBOARD_HOOK", shell.rawValue)]
        let choice = context.accountChoice(option: nil)
        for notice in choice.notices { io.stderr.write("switchboard: \(notice.displaySafe)\n") }
        let account: Account?
        let stamp: String
        do {
            let database = try context.openDatabase(.readOnlyIfUnwritable)
            stamp = database.isShared ? "" : ChangeSignal.name(forDatabase: database.path)
            let session = try context.sessionKey()
            account = try choice.query.map { try database.findAccount($0) } ?? database.active(in: session).account
        } catch let error as StoreError {
            // Said once: the stamp unchanged, the hook asks again only when something changes.
            let home = HomeDirectory.path(environment: io.environment)
            let place = if case .rule = choice.source { choice.reason(home: home) + ": " } else { "" }
            io.stderr.write("switchboard: \(place)\(error.description.displaySafe)\n")
            io.print(lines.joined(separator: "\n"))
            return
        }
        lines.append(syntax.setLocal(shell == .fish ? "_switchboard_stamp" : "_SWITCHBOARD_STAMP", stamp))
        let git = (try? context.configuration().git) ?? GitSettings()
        var environment = AccountEnvironment(account: account, session: .machine)
        environment.addCommitIdentity(of: account, settings: git)
        for (name, value) in environment.variables where name != "SWITCHBOARD_SESSION" {
            // A value the person set stays theirs; the hook's own is marked as such.
            if name == "SWITCHBOARD_ACCOUNT", choice.source == .environment { continue }
            lines.append(value.map { syntax.set(name, $0) } ?? syntax.unset(name))
            if name == "SWITCHBOARD_ACCOUNT" {
                let own = choice.source == .environment ? nil : value
                lines.append(own.map { syntax.set("SWITCHBOARD_HOOK_ACCOUNT", $0) } ?? syntax.unset("SWITCHBOARD_HOOK_ACCOUNT"))
            }
        }
        let prompt = account.map { HookScript.prompt(name: $0.name, tag: choice.tag) }
        lines.append(prompt.map { syntax.set("SWITCHBOARD_PROMPT", $0) } ?? syntax.unset("SWITCHBOARD_PROMPT"))
        let home = HomeDirectory.path(environment: io.environment)
        let chosenBy = account == nil ? nil : choice.reason(home: home)
        lines.append(chosenBy.map { syntax.set("SWITCHBOARD_CHOSEN_BY", $0) } ?? syntax.unset("SWITCHBOARD_CHOSEN_BY"))
        // A rule coming into force, or going out of it, is said once.
        let before = io.environment["SWITCHBOARD_CHOSEN_BY"]
        if before != chosenBy, case .rule = choice.source, let account {
            io.stderr.write("switchboard: \(account.name.displaySafe) here (\(choice.reason(home: home).displaySafe))\n")
        } else if before != chosenBy, let before, !before.isEmpty, choice.source == .terminal, before != choice.reason(home: home) {
            io.stderr.write("switchboard: \(account?.name.displaySafe ?? "nobody") here (this terminal's choice)\n")
        }
        io.print(lines.joined(separator: "\n"))
    }
}

/// The hook's shell code, one per shell. At each prompt it reads the store's
/// stamp (`ChangeSignal`) with the shell's `read`, finds (when `$PWD` is not
/// the one it last looked from) the nearest folder holding `.switchboard` or
/// `.git` by testing each folder up from `$PWD`,
/// and runs `switchboard hook-env` only when either, `SWITCHBOARD_ACCOUNT` or
/// `SWITCHBOARD_SESSION` differs from what it saw last (always on a shared
/// store, whose changes no local file shows). The prompt's exit status is kept.
enum HookScript {
    /// This executable's path, as the hook runs it: `/proc/self/exe`.
    static func programPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// What `SWITCHBOARD_PROMPT` holds: the name (24 columns at most), and
    /// `dir` or `env` after it when a rule or the environment chose it.
    static func prompt(name: String, tag: String?) -> String {
        let short = name.displaySafe.truncated(toWidth: 24)
        return tag.map { "\(short) (\($0))" } ?? short
    }

    static func text(for shell: HookShell, program: String) -> String {
        switch shell {
        case .bash: bash(ShellSyntax.posixQuoted(program))
        case .zsh: zsh(ShellSyntax.posixQuoted(program))
        case .fish: fish(ShellSyntax.fishQuoted(program))
        }
    }

    private static func bash(_ program: String) -> String {
        posix(program, shell: "bash", keepStatus: true) + """
        if [[ ";${PROMPT_COMMAND[*]-};" != *";_switchboard_hook;"* ]]; then
          PROMPT_COMMAND="_switchboard_hook${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
        fi

        """
    }

    private static func zsh(_ program: String) -> String {
        posix(program, shell: "zsh", keepStatus: false) + """
        typeset -ag precmd_functions
        if (( ! ${precmd_functions[(I)_switchboard_hook]} )); then
          precmd_functions=(_switchboard_hook $precmd_functions)
        fi

        """
    }

    /// The hook function as bash and zsh both read it; bash's keeps the
    /// prompt's exit status itself (zsh's precmd does not change it).
    private static func posix(_ program: String, shell: String, keepStatus: Bool) -> String {
        """
        _switchboard_hook() {
          local \(keepStatus ? "status=$? " : "")stamp= dir=$PWD root=
          if [[ -n ${_SWITCHBOARD_STAMP-} && -r $_SWITCHBOARD_STAMP ]]; then read -r stamp < "$_SWITCHBOARD_STAMP"; fi
          if [[ $PWD == "${_SWITCHBOARD_PWD-}" ]]; then root=$_SWITCHBOARD_ROOT; else
            while :; do
              if [[ -e $dir/.switchboard || -e $dir/.git ]]; then root=$dir; break; fi
              [[ -z $dir || $dir == / ]] && break
              dir=${dir%/*}; [[ -z $dir ]] && dir=/
            done
            _SWITCHBOARD_PWD=$PWD _SWITCHBOARD_ROOT=$root
          fi
          if [[ -z ${_SWITCHBOARD_STAMP-} || "$stamp|$root|${SWITCHBOARD_ACCOUNT-}|${SWITCHBOARD_SESSION-}" != "${_SWITCHBOARD_SEEN-}" ]]; then
            eval "$(\(program) hook-env \(shell))"
            _SWITCHBOARD_SEEN="$stamp|$root|${SWITCHBOARD_ACCOUNT-}|${SWITCHBOARD_SESSION-}"
          fi\(keepStatus ? "\n  return $status" : "")
        }

        """
    }

    private static func fish(_ program: String) -> String {
        """
        function __switchboard_hook --on-event fish_prompt
            set -l stamp ''
            if set -q _switchboard_stamp; and test -n "$_switchboard_stamp" -a -r "$_switchboard_stamp"
                read stamp < $_switchboard_stamp
            end
            set -l dir $PWD
            set -l root ''
            if set -q _switchboard_pwd; and test "$PWD" = "$_switchboard_pwd"
                set root $_switchboard_root
            else
                while true
                    if test -e "$dir/.switchboard" -o -e "$dir/.git"
                        set root $dir
                        break
                    end
                    if test -z "$dir" -o "$dir" = /
                        break
                    end
                    set dir (string replace -r '/[^/]*$' '' -- $dir)
                    test -z "$dir"; and set dir /
                end
                set -g _switchboard_pwd $PWD
                set -g _switchboard_root $root
            end
            set -l account ''
            set -q SWITCHBOARD_ACCOUNT; and set account $SWITCHBOARD_ACCOUNT
            set -l session ''
            set -q SWITCHBOARD_SESSION; and set session $SWITCHBOARD_SESSION
            if not set -q _switchboard_stamp; or test -z "$_switchboard_stamp" -o "$stamp|$root|$account|$session" != "$_switchboard_seen"
                \(program) hook-env fish | source
                set account ''
                set -q SWITCHBOARD_ACCOUNT; and set account $SWITCHBOARD_ACCOUNT
                set -g _switchboard_seen "$stamp|$root|$account|$session"
            end
        end

        """
    }
}

extension ShellSyntax {
    /// Sets a variable of the shell's own, not exported to its commands.
    func setLocal(_ name: String, _ value: String) -> String {
        switch self {
        case .bash, .zsh, .sh: "\(name)=\(Self.posixQuoted(value))"
        case .fish: "set -g \(name) \(Self.fishQuoted(value))"
        }
    }
}
