import ConfigFile

/// What `--theme` (or the config file's `theme` key) names: a shipped theme
/// or a theme file.
public enum ThemeReference: Hashable, Sendable {
    /// A shipped theme by name, such as `light`.
    case builtIn(String)
    /// A theme file by path.
    case file(String)

    /// Anything containing `/` or ending in `.toml` is a path; anything else a name.
    public init(_ argument: String) {
        self = argument.contains("/") || argument.hasSuffix(".toml") ? .file(argument) : .builtIn(argument)
    }
}

/// A theme asked for, and where it was asked for, which a warning about
/// it names: `--theme`, or config.toml's `theme` key (`config.toml:2: theme`).
public struct ThemeRequest: Hashable, Sendable {
    /// A shipped theme's name or a theme file's path (see ``ThemeReference``).
    public var argument: String
    /// Where it came from, as warnings name it.
    public var source: String

    public init(_ argument: String, source: String) {
        self.argument = argument
        self.source = source
    }

    /// What `argument` names.
    public var reference: ThemeReference { ThemeReference(argument) }
}

extension Theme {
    /// The theme `argument` names (see ``ThemeReference``). `builtInText`
    /// returns the text of a shipped theme file by name, or `nil` if it is
    /// missing; shipped files are named `themes/NAME.toml` in errors. An
    /// unknown name is an error from `source` listing the shipped names.
    public static func resolve(
        _ argument: String, source: String = "--theme", builtInText: (String) -> String?
    ) throws(ConfigError) -> Theme {
        switch ThemeReference(argument) {
        case .file(let path):
            return try load(path: path)
        case .builtIn(let name):
            guard builtInNames.contains(name) else {
                let available = "available themes: " + builtInNames.joined(separator: ", ")
                throw ConfigError(file: source, message: unknown("theme", name, among: builtInNames) + "; " + available)
            }
            let file = "themes/\(name).toml"
            guard let text = builtInText(name) else {
                switch name {
                case builtIn.name: return builtIn
                case monochrome.name: return monochrome
                default: throw ConfigError(file: file, message: "the built-in theme file is missing")
                }
            }
            return try parse(text: text, file: file)
        }
    }
}

/// The theme to start with, and a warning to show if the one asked for
/// could not be used.
public struct ThemeSelection: Hashable, Sendable {
    /// The theme to use.
    public var theme: Theme
    /// Why the theme asked for is not the one in use: the error's description,
    /// naming the file, line and key. `nil` when all went well.
    public var warning: String?

    public init(theme: Theme, warning: String? = nil) {
        self.theme = theme
        self.warning = warning
    }

    /// Chooses the starting theme.
    ///
    /// `requested` is `--theme`, or failing that the config file's `theme`
    /// key; `source` names where it came from in warnings. When nothing is
    /// requested, `NO_COLOR` set to a non-empty value in `environment` selects
    /// `monochrome`, otherwise `default`. An explicit request wins over
    /// `NO_COLOR`, as no-color.org asks of configuration and arguments.
    ///
    /// Never fails: if the requested theme cannot be used (unknown name,
    /// unreadable or invalid file) the warning says why and the fallback is
    /// used — ``Theme/monochrome`` under `NO_COLOR`, otherwise ``Theme/builtIn``.
    public static func resolve(
        requested: String?, source: String = "--theme", environment: [String: String],
        builtInText: (String) -> String?
    ) -> ThemeSelection {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let argument = requested ?? (noColor ? Theme.monochrome.name : Theme.builtIn.name)
        do {
            return ThemeSelection(theme: try Theme.resolve(argument, source: source, builtInText: builtInText))
        } catch {
            let fallback = noColor ? Theme.monochrome : Theme.builtIn
            return ThemeSelection(theme: fallback, warning: "\(error) (using the \(fallback.name) theme)")
        }
    }
}
