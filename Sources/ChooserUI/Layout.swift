import ScreenKit
import TerminalUI

/// Where each part of the screen goes at a given size. Pure, so the reducer
/// (scrolling, mouse hits) and the drawing agree.
public struct ScreenLayout: Hashable, Sendable {
    /// The smallest terminal the chooser draws in.
    public static let minimum = TooSmall.minimum
    /// Rows each item of the accounts pane takes: the name, then its identities.
    public static let accountRows = 2

    public let statusBar: Rect
    public let accounts: Rect
    public let guide: Rect
    public let keyBar: Rect
    /// Inside the accounts frame, above the filter line.
    public let accountList: Rect
    /// The filter line inside the accounts frame.
    public let filterLine: Rect
    /// Inside the guide frame, above the detail line.
    public let guideList: Rect
    /// The last row inside the guide frame: the facts of the selected
    /// account's identities (`DetailLine`), beside the filter line.
    public let detailLine: Rect

    /// The layout, or nil when the terminal is smaller than `minimum`.
    /// `bottomRows` are kept free above the key bar for a layer's own rows
    /// (the tour's caption): the panes end above them, borders and all.
    public init?(_ size: Size, bottomRows: Int = 0) {
        guard size.width >= Self.minimum.width, size.height >= Self.minimum.height else { return nil }
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let (top, rest) = screen.splitRows(1)
        let (bottom, above) = rest.splitRows(-1)
        let body = above.splitRows(-max(0, min(bottomRows, above.height - 6))).rest
        statusBar = top
        keyBar = bottom
        let accountsWidth = min(44, max(30, size.width / 3))
        (accounts, guide) = body.splitColumns(accountsWidth)
        (filterLine, accountList) = accounts.inset().splitRows(-1)
        (detailLine, guideList) = guide.inset().splitRows(-1)
    }

    /// How many account items fit.
    public var accountItemsShown: Int { max(1, accountList.height / Self.accountRows) }
    /// How many guide rows fit.
    public var guideRowsShown: Int { max(1, guideList.height) }
}


extension AppState {
    /// The layout at this size, the panes ending above a layer's own rows; nil when too small.
    public var layout: ScreenLayout? { ScreenLayout(size, bottomRows: surround.bottomRows) }
}
