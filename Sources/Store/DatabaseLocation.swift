import Foundation

/// Where the database lives: `--database`, else `SWITCHBOARD_DATABASE`, else
/// `$XDG_DATA_HOME/switchboard/switchboard.sqlite`, else
/// `~/.local/share/switchboard/switchboard.sqlite` (DESIGN §7).
public enum DatabaseLocation {
    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["SWITCHBOARD_DATABASE"], !path.isEmpty { return path }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and ignored.
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return dataHome + "/switchboard/switchboard.sqlite"
    }
}
