import SwitchboardCore
import TerminalUI

extension ThemeSelection {
    /// The chooser's theme: `--theme`, else config.toml's `theme`, else the
    /// default (monochrome under `NO_COLOR`). A warning names where the
    /// failed choice came from: `--theme`, or the config file's `theme` key.
    public static func chooser(flag: String?, configured: ThemeRequest?, environment: [String: String]) -> ThemeSelection {
        let request = flag.map { ThemeRequest($0, source: "--theme") } ?? configured
        return resolve(
            requested: request?.argument, source: request?.source ?? "--theme", environment: environment, builtInText: BundledFiles.themeText)
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
