/// Keeps `selection` within `0..<count` and `scroll` so the selection shows:
/// one rule for every list (the accounts, the guide, the board's stations).
public func clampScroll(selection: inout Int, scroll: inout Int, count: Int, shown: Int) {
    selection = count == 0 ? 0 : min(max(0, selection), count - 1)
    if selection < scroll { scroll = selection }
    if selection >= scroll + shown { scroll = selection - shown + 1 }
    scroll = max(0, min(scroll, max(0, count - shown)))
}
