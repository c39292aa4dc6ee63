import CNcurses

// The anchor of `switchboard-bench tui`'s first-frame figure: the least a
// curses program does to put a frame on the terminal. Built like
// `switchboard` (same package, same configuration), it only starts curses,
// shows the (empty) screen and ends: initscr, refresh, endwin.
setlocale(LC_ALL, "")
_ = initscr()
_ = refresh()
_ = endwin()
