import ConfigFile
import SwitchboardCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files shipped with the package: the guide's listings and the theme files.
///
/// They are `SwitchboardApp`'s resources, which SwiftPM copies beside the
/// executables into `Switchboard_SwitchboardApp.resources`. They are found
/// from the running executable's folder with POSIX calls, not `Bundle`, so
/// that the launcher can draw its first frame without loading Foundation.
public enum BundledFiles {
    /// The resource folder, if it is beside the running executable.
    public static let folder: String? = {
        guard let executables = RunningProcess.executableFolder else { return nil }
        let folder = executables + "/Switchboard_SwitchboardApp.resources/Resources"
        return access(folder, R_OK) == 0 ? folder : nil
    }()

    /// The path of the shipped file `name` (`guide.toml`, `themes/light.toml`), if present.
    public static func path(_ name: String) -> String? {
        guard let folder else { return nil }
        let path = folder + "/" + name
        return access(path, R_OK) == 0 ? path : nil
    }

    /// The text of the built-in theme `name` (`themes/NAME.toml`), if shipped.
    public static func themeText(_ name: String) -> String? {
        guard let path = path("themes/\(name).toml") else { return nil }
        return try? ConfigFile.text(path: path)
    }
}
