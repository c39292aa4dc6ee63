/// The parts of the screen a theme gives a look to. Theme files name them
/// by their raw values.
public enum ThemeRole: String, CaseIterable, Hashable, Sendable {
    /// Ordinary text and the screen's background.
    case text
    /// Less important text: hints, session names, empty states.
    case muted
    /// Pane borders, and the border of the pane that has focus.
    case border, borderFocused
    /// Pane and dialog titles.
    case title
    /// The status bar along the top, and the active person's name in it.
    case statusBar, statusActive
    /// The key bar along the bottom: keys and their labels.
    case keyBarKey, keyBarLabel
    /// Rows of the accounts pane: the selected row and the active account.
    case accountSelected, accountActive
    /// The selected row of a pane without the focus: told apart from the
    /// focused pane's selection (underlined, not filled).
    case selectionUnfocused
    /// An identity's state beside its provider.
    case stateAvailable, stateExpired, stateRevoked
    /// The filter prompt and the text typed into it.
    case filter
    /// The characters of a row that the filter matched. On the selected
    /// row only its attributes are added, so it must show without colour
    /// (underline, bold).
    case match
    /// Guide listings: times, channels, and the star of a favourite.
    case guideTime, guideChannel, favourite
    /// Dialog frames and bodies, and the large user code.
    case dialog, dialogTitle, code
    /// Messages: good news, warnings, errors.
    case statusOK, statusWarning, statusError
    /// Toasts for events from elsewhere.
    case toast
    /// The QR code: dark modules in the foreground, light in the background.
    case qrCode
}

/// A named map from roles to styles. Roles a theme does not mention fall
/// back to the built-in default's.
///
/// Themes are data: the shipped ones are theme files (see ``parse(text:file:)``);
/// ``builtIn`` and ``monochrome`` are the same looks compiled in, for when no
/// file can be read.
public struct Theme: Hashable, Sendable {
    public let name: String
    public private(set) var styles: [ThemeRole: Style]

    public init(name: String, styles: [ThemeRole: Style]) {
        self.name = name
        self.styles = styles
    }

    /// The style of `role`.
    public subscript(role: ThemeRole) -> Style {
        styles[role] ?? Theme.builtIn.styles[role] ?? .plain
    }

    /// The names of the shipped theme files, in the order `t` cycles through them.
    public static let builtInNames = ["default", "light", "high-contrast", "monochrome"]

    /// The shipped theme after `name` in ``builtInNames``, wrapping round;
    /// the first for a name that is not shipped (such as a theme read from a path).
    public static func builtInName(after name: String) -> String {
        guard let index = builtInNames.firstIndex(of: name) else { return builtInNames[0] }
        return builtInNames[(index + 1) % builtInNames.count]
    }

    /// The theme compiled into the program, used when no file loads. It is
    /// the same as `themes/default.toml` (a test keeps them equal): for a
    /// dark terminal, 256 colours.
    public static let builtIn = Theme(name: "default", styles: [
        .text: Style(),
        .muted: Style(foreground: .palette(244)),
        .border: Style(foreground: .palette(240)),
        .borderFocused: Style(foreground: .palette(39)),
        .title: Style(foreground: .palette(39), attributes: .bold),
        .statusBar: Style(foreground: .palette(252), background: .palette(236)),
        .statusActive: Style(foreground: .palette(77), background: .palette(236), attributes: .bold),
        .keyBarKey: Style(foreground: .palette(81), attributes: .bold),
        .keyBarLabel: Style(foreground: .palette(250)),
        .accountSelected: Style(foreground: .palette(16), background: .palette(74), attributes: .bold),
        .accountActive: Style(foreground: .palette(77), attributes: .bold),
        .selectionUnfocused: Style(foreground: .palette(74), attributes: .underline),
        .stateAvailable: Style(foreground: .palette(77)),
        .stateExpired: Style(foreground: .palette(214)),
        .stateRevoked: Style(foreground: .palette(203)),
        .filter: Style(foreground: .palette(221), attributes: .bold),
        .match: Style(foreground: .palette(221), attributes: [.bold, .underline]),
        .guideTime: Style(foreground: .palette(244)),
        .guideChannel: Style(foreground: .palette(74)),
        .favourite: Style(foreground: .palette(220), attributes: .bold),
        .dialog: Style(),
        .dialogTitle: Style(foreground: .palette(39), attributes: .bold),
        .code: Style(foreground: .palette(220), attributes: .bold),
        .statusOK: Style(foreground: .palette(77), attributes: .bold),
        .statusWarning: Style(foreground: .palette(214), attributes: .bold),
        .statusError: Style(foreground: .palette(203), attributes: .bold),
        .toast: Style(foreground: .palette(16), background: .palette(221)),
        .qrCode: Style(foreground: .palette(16), background: .palette(231)),
    ])

    /// A theme without colour, attributes only (for `NO_COLOR`): reverse for
    /// the selection (underline for a pane's without focus), the status
    /// bar and toasts; bold for titles, the code and what is active; bold
    /// and underlined for what the filter matched; dim for what matters
    /// less. The same as
    /// `themes/monochrome.toml`.
    public static let monochrome = Theme(name: "monochrome", styles: Dictionary(uniqueKeysWithValues: ThemeRole.allCases.map { role in
        let attributes: TextAttributes = switch role {
        case .accountSelected, .statusBar, .toast, .qrCode: .reverse
        case .statusActive: [.reverse, .bold]
        case .match: [.bold, .underline]
        case .title, .dialogTitle, .code, .borderFocused, .keyBarKey, .accountActive, .stateExpired, .stateRevoked,
            .statusError, .statusOK, .statusWarning, .filter, .favourite: .bold
        case .muted, .border, .guideTime: .dim
        case .selectionUnfocused: .underline
        case .text, .keyBarLabel, .stateAvailable, .guideChannel, .dialog: []
        }
        return (role, Style(attributes: attributes))
    }))
}
