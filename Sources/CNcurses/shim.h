#ifndef SWITCHBOARD_CNCURSES_SHIM_H
#define SWITCHBOARD_CNCURSES_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* What Swift cannot import from curses.h: global variables under strict
   concurrency, and function-like macros. */
static inline WINDOW *sb_stdscr(void) { return stdscr; }
static inline int sb_lines(void) { return LINES; }
static inline int sb_cols(void) { return COLS; }
static inline int sb_colors(void) { return COLORS; }
static inline int sb_color_pairs(void) { return COLOR_PAIRS; }
static inline int sb_key_f(int n) { return KEY_F(n); }
static inline attr_t sb_a_bold(void) { return A_BOLD; }
static inline attr_t sb_a_dim(void) { return A_DIM; }
static inline attr_t sb_a_italic(void) { return A_ITALIC; }
static inline attr_t sb_a_underline(void) { return A_UNDERLINE; }
static inline attr_t sb_a_reverse(void) { return A_REVERSE; }
static inline attr_t sb_a_normal(void) { return A_NORMAL; }
static inline mmask_t sb_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int sb_mouse_kind(mmask_t state) {
    if (state & BUTTON1_PRESSED) return 1;
    if (state & BUTTON1_RELEASED) return 2;
    if (state & BUTTON4_PRESSED) return 3;
    if (state & BUTTON5_PRESSED) return 4;
    return 0;
}
static inline void sb_getmaxyx(WINDOW *w, int *y, int *x) { getmaxyx(w, *y, *x); }

#endif
