/// Fitting a theme to terminals with fewer colours.
extension Theme {
    /// Roles that mark a bar or the selection: without colours they are
    /// shown in reverse video so they stay visible.
    public static let reversedWithoutColor: Set<ThemeRole> = [.accountSelected, .statusBar, .statusActive, .toast, .qrCode]

    /// This theme for a terminal that shows `count` colours (curses' `COLORS`).
    ///
    /// - 256 or more: unchanged.
    /// - 16 to 255: every palette colour above 15 becomes the nearest of 0–15
    ///   by xterm's RGB values (88-colour terminals get the safe 16 too); a
    ///   grey becomes the nearest grey (black, bright black, white, bright
    ///   white), never a tinted colour.
    /// - 8 to 15: every colour above 7 becomes the nearest of 0–7, except that
    ///   a middle grey foreground (such as `244` for muted text), which would
    ///   land on black or white and vanish on one kind of background, becomes
    ///   the default foreground, dimmed. Greys again become black or white.
    /// - Fewer than 8: colours are dropped and attributes kept; the roles in
    ///   ``reversedWithoutColor`` gain reverse video.
    ///
    /// If a foreground and background that differed land on the same colour,
    /// the foreground becomes black or white, whichever is farther from it.
    /// The name is kept.
    public func reduced(toColors count: Int) -> Theme {
        if count >= 256 { return self }
        let limit: UInt8 = count >= 16 ? 16 : count >= 8 ? 8 : 0
        var styles: [ThemeRole: Style] = [:]
        for role in ThemeRole.allCases {
            let style = self[role]
            if limit == 0 {
                var attributes = style.attributes
                if Self.reversedWithoutColor.contains(role) { attributes.insert(.reverse) }
                styles[role] = Style(attributes: attributes)
            } else {
                styles[role] = Self.reduce(style, limit: limit)
            }
        }
        return Theme(name: name, styles: styles)
    }

    private static func reduce(_ style: Style, limit: UInt8) -> Style {
        var result = style
        result.background = reduce(style.background, limit: limit)
        if limit == 8, case .palette(let index) = style.foreground, index >= 8, isMiddleGrey(index) {
            result.foreground = .default
            result.attributes.insert(.dim)
        } else {
            result.foreground = reduce(style.foreground, limit: limit)
        }
        if result.foreground == result.background, style.foreground != style.background,
           case .palette(let background) = result.background {
            let colour = Palette.rgb(background)
            let white: UInt8 = limit == 16 ? 15 : 7
            result.foreground = colour.distance(to: Palette.rgb(0)) >= colour.distance(to: Palette.rgb(white)) ? .palette(0) : .palette(white)
        }
        return result
    }

    private static func reduce(_ color: Color, limit: UInt8) -> Color {
        guard case .palette(let index) = color, index >= limit else { return color }
        let rgb = Palette.rgb(index)
        guard rgb.isGrey else { return .palette(Palette.nearest(to: rgb, among: 0...(limit - 1))) }
        let greys: [UInt8] = limit == 16 ? [0, 8, 7, 15] : [0, 7]
        return .palette(greys.min { Palette.rgb($0).distance(to: rgb) < Palette.rgb($1).distance(to: rgb) } ?? 0)
    }

    private static func isMiddleGrey(_ index: UInt8) -> Bool {
        let rgb = Palette.rgb(index)
        return rgb.isGrey && (64...191).contains(rgb.red)
    }
}
