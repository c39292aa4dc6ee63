/// Files compiled into the program: the guide's listings and the built-in
/// themes. `Resources/` (and `themes/` at the top of the repository, a link
/// to `Resources/themes`) holds their sources; SwiftPM embeds their bytes,
/// so a copied executable needs no folder beside it.
public enum BundledFiles {
    /// The built-in themes, by name.
    static let themes: [String: [UInt8]] = [
        "default": PackageResources.default_toml,
        "light": PackageResources.light_toml,
        "high-contrast": PackageResources.high_contrast_toml,
        "monochrome": PackageResources.monochrome_toml,
    ]

    /// The text of the guide's listings (`Resources/guide.toml`).
    public static var guideText: String { String(decoding: PackageResources.guide_toml, as: UTF8.self) }

    /// The text of the built-in theme `name` (`Resources/themes/NAME.toml`), if there is one.
    public static func themeText(_ name: String) -> String? {
        themes[name].map { String(decoding: $0, as: UTF8.self) }
    }
}
