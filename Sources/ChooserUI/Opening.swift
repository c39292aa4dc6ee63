import SwitchboardCore
import TerminalUI

extension ThemeSelection {
    /// The chooser's theme: `--theme`, else config.toml's `theme`, else the
    /// default (monochrome under `NO_COLOR`). A warning names where the
    /// failed choice came from: `--theme`, or the config file's `theme` key.
    public static func chooser(
        flag: String?, configTheme: String?, configFile: String?, environment: [String: String]
    ) -> ThemeSelection {
        let source = flag != nil ? "--theme" : (configFile.map { "\($0): theme" } ?? "--theme")
        return resolve(requested: flag ?? configTheme, source: source, environment: environment, builtInText: BundledFiles.themeText)
    }
}

extension AppState {
    /// The chooser's state before the store is read, on a terminal of
    /// `size` that shows `colors` colours, with a toast if the theme could
    /// not be used.
    public static func opening(
        session: SessionKey, size: Size, now: Moment, guide: Guide, selection: ThemeSelection, colors: Int,
        providers: [ProviderChoice]
    ) -> AppState {
        var state = AppState(
            session: session, size: size, now: now, guide: guide, theme: selection.theme.reduced(toColors: colors), providers: providers)
        if let warning = selection.warning { state.notify(warning, .warning) }
        return state
    }
}
