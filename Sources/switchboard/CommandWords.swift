import ConfigFile

/// The command line put in the order ArgumentParser reads, before it is
/// parsed: common options given before the command (`switchboard --config
/// F status`, as `git -C` and `kubectl --context` take them) move after it;
/// a first word that is no command (`switchboard acounts`) is said as
/// such, with the nearest command, instead of the chooser's usage.
enum CommandWords {
    /// The common options that take a value.
    static let valued = ["--database", "--store", "--session", "--config"]

    /// `arguments` rearranged, or what is wrong with them. `commands` are
    /// the subcommands' names.
    static func arrange(_ arguments: [String], commands: [String]) -> Result<[String], CommandWordsError> {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if valued.contains(word), index + 1 < arguments.count {
                leading += [word, arguments[index + 1]]
                index += 2
            } else if word == "--json" || valued.contains(where: { word.hasPrefix($0 + "=") }) {
                leading.append(word)
                index += 1
            } else {
                break
            }
        }
        // Options only, or the chooser's own, --help, --version, a word after --: as given.
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return .success(arguments) }
        let word = arguments[index]
        if commands.contains(word) { return .success([word] + leading + arguments[(index + 1)...]) }
        if word == "help" { return .success(arguments) }
        return .failure(CommandWordsError(word: word, suggestion: Suggestion.closest(to: word, among: commands)))
    }
}

/// A first word that is no command.
struct CommandWordsError: Error, Equatable, CustomStringConvertible {
    let word: String
    let suggestion: String?

    var description: String {
        "unknown command \(String(reflecting: word).displaySafe)"
            + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + " (`switchboard --help` lists the commands)"
    }
}
