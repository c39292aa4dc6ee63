import Foundation

/// Files shipped with the package: the theme files.
public enum BundledFiles {
    /// The text of the built-in theme `name` (`themes/NAME.toml`), if shipped.
    public static func themeText(_ name: String) -> String? {
        guard let url = Bundle.module.url(forResource: name, withExtension: "toml", subdirectory: "Resources/themes") else { return nil }
        return try? String(contentsOf: url, encoding: .utf8)
    }
}
