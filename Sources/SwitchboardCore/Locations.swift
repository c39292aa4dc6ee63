#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the database lives: `--database`, else `SWITCHBOARD_DATABASE`, else
/// `$XDG_DATA_HOME/switchboard/switchboard.sqlite`, else
/// `~/.local/share/switchboard/switchboard.sqlite`.
public enum DatabaseLocation {
    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["SWITCHBOARD_DATABASE"], !path.isEmpty { return path }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and ignored.
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? HomeDirectory.path(environment: environment) + "/.local/share"
        return dataHome + "/switchboard/switchboard.sqlite"
    }
}

/// Where config.toml lives: `--config`, else `SWITCHBOARD_CONFIG`, else
/// `$XDG_CONFIG_HOME/switchboard/config.toml`, else `~/.config/...`.
public enum ConfigLocation {
    /// The path, and whether it was named explicitly (then a missing file
    /// is worth telling the person about; the defaults are used either way).
    public static func resolve(explicit: String?, environment: [String: String]) -> (path: String, explicit: Bool) {
        if let explicit, !explicit.isEmpty { return (explicit, true) }
        if let path = environment["SWITCHBOARD_CONFIG"], !path.isEmpty { return (path, true) }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? HomeDirectory.path(environment: environment) + "/.config"
        return (base + "/switchboard/config.toml", false)
    }
}

/// The person's home folder: `HOME`, else the password database's entry.
public enum HomeDirectory {
    public static func path(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }
}
