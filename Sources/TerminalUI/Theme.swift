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
    /// An identity's state beside its provider.
    case stateAvailable, stateExpired, stateRevoked
    /// The filter prompt and the text typed into it.
    case filter
    /// Guide listings: times, channels, and the star of a favourite.
    case guideTime, guideChannel, favourite
    /// Dialog frames and bodies, and the large user code.
    case dialog, dialogTitle, code
    /// Messages: good news, warnings, errors.
    case statusOK, statusWarning, statusError
    /// Toasts for events from elsewhere.
    case toast
}

/// A named map from roles to styles. Roles a theme does not mention fall
/// back to the built-in default's.
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

    /// The theme compiled into the program, used when no file loads.
    public static let builtIn = Theme(name: "default", styles: [
        .text: Style(),
        .muted: Style(foreground: .palette(8)),
        .border: Style(foreground: .palette(8)),
        .borderFocused: Style(foreground: .cyan),
        .title: Style(foreground: .cyan, attributes: .bold),
        .statusBar: Style(foreground: .white, background: .palette(236)),
        .statusActive: Style(foreground: .green, background: .palette(236), attributes: .bold),
        .keyBarKey: Style(foreground: .cyan, attributes: .bold),
        .keyBarLabel: Style(foreground: .palette(250)),
        .accountSelected: Style(foreground: .black, background: .cyan),
        .accountActive: Style(foreground: .green, attributes: .bold),
        .stateAvailable: Style(foreground: .green),
        .stateExpired: Style(foreground: .yellow),
        .stateRevoked: Style(foreground: .red),
        .filter: Style(foreground: .yellow, attributes: .bold),
        .guideTime: Style(foreground: .palette(8)),
        .guideChannel: Style(foreground: .blue),
        .favourite: Style(foreground: .yellow, attributes: .bold),
        .dialog: Style(),
        .dialogTitle: Style(foreground: .cyan, attributes: .bold),
        .code: Style(foreground: .yellow, attributes: .bold),
        .statusOK: Style(foreground: .green, attributes: .bold),
        .statusWarning: Style(foreground: .yellow, attributes: .bold),
        .statusError: Style(foreground: .red, attributes: .bold),
        .toast: Style(foreground: .black, background: .yellow),
    ])

    /// A theme without colour: attributes only (for `NO_COLOR`).
    public static let monochrome = Theme(name: "monochrome", styles: Dictionary(uniqueKeysWithValues: ThemeRole.allCases.map { role in
        let attributes: TextAttributes = switch role {
        case .accountSelected, .statusBar, .toast: .reverse
        case .title, .dialogTitle, .code, .statusActive, .keyBarKey, .accountActive, .statusError, .statusOK,
            .statusWarning, .filter, .favourite: .bold
        case .muted, .border, .guideTime: .dim
        default: []
        }
        return (role, Style(attributes: attributes))
    }))
}
