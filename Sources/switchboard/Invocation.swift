/// How `switchboard` was started, judged from its whole argument vector
/// (name included) before the command line is parsed.
///
/// login(1), and a getty's autologin through it, start a user's login shell
/// with a "-" before its name (`-switchboard`) and no arguments: that is a
/// station, so it runs `kiosk`. The programs that run a command through a
/// user's shell (sshd, for ssh and scp; su) pass `-c COMMAND`, with or
/// without the "-": switchboard is no shell, so it refuses and runs nothing.
enum Invocation: Equatable {
    /// Parse these arguments (what follows the program's name).
    case arguments([String])
    /// Run nothing: say why on standard error and exit with `ExitStatus.usage`.
    case refused(String)

    /// Judges `argv`: the program's name, then its arguments.
    init(_ argv: [String]) {
        let arguments = Array(argv.dropFirst())
        let asLoginShell = argv.first?.hasPrefix("-") ?? false
        if asLoginShell && arguments.isEmpty {
            self = .arguments(["kiosk"])
        } else if asLoginShell {
            self = .refused(
                "started as a login shell with arguments: as a login shell switchboard runs only the kiosk, "
                    + "and never a command or another shell")
        } else if arguments.first == "-c" {
            self = .refused("-c asks a shell to run a command: switchboard is not a shell and never runs one")
        } else {
            self = .arguments(arguments)
        }
    }
}
