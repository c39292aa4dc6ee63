#ifndef SWITCHBOARD_CNCURSES_SHIM_H
#define SWITCHBOARD_CNCURSES_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* The C library's column count of a character (X/Open, hidden from the
   Glibc module). */
extern int wcwidth(wchar_t c);

/* What Swift cannot import from curses.h: global variables under strict
   concurrency, and function-like macros. */
static inline WINDOW *sb_stdscr(void) { return stdscr; }
static inline WINDOW *sb_curscr(void) { return curscr; }
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
static inline void sb_getmaxyx(WINDOW *w, int *y, int *x) { getmaxyx(w, *y, *x); }

/* Mouse masks are function-like macros. */
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

/* Sets the attributes and a colour pair of any number (ncurses 6 reads an
   extended pair from the `opts` pointer). */
static inline int sb_wattr_set(WINDOW *w, attr_t attrs, int pair) {
    return wattr_set(w, attrs, (short)(pair > 0x7fff ? 0 : pair), &pair);
}

/* Puts a grapheme cluster of up to CCHARW_MAX characters in one cell at
   (y, x), with the window's attributes: the first character gives the
   cell its width, and all of them are written to the terminal together.
   setcchar keeps only the combining characters after the first; an emoji
   ZWJ sequence (man, ZWJ, woman...) has spacing ones too, so the cell's
   characters are set here. */
static inline int sb_put_cluster(WINDOW *w, int y, int x, const wchar_t *chars, int count) {
    cchar_t cell;
    wchar_t first[2] = { chars[0], 0 };
    if (count < 1 || count > CCHARW_MAX) return ERR;
    if (setcchar(&cell, first, A_NORMAL, 0, NULL) != OK) return ERR;
    for (int i = 1; i < count; i++) cell.chars[i] = chars[i];
    return mvwadd_wch(w, y, x, &cell);
}

/* A terminfo string capability, NULL when absent or not a string. */
static inline const char *sb_tigetstr(const char *name) {
    char *s = tigetstr(name);
    return (s == NULL || s == (char *)-1) ? NULL : s;
}

/* tiparm is variadic. */
static inline const char *sb_tiparm1(const char *cap, int p1) { return tiparm(cap, p1); }

/* Whether the current LC_CTYPE encodes UTF-8. */
static inline int sb_codeset_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* ioctl is variadic. */
static inline int sb_get_winsize(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}
static inline int sb_bytes_available(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

/* A close-on-exec pipe whose ends do not block. */
static inline int sb_make_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    }
    return 0;
}
static inline int sb_dup_cloexec(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 0); }

/* ---- Restoring the terminal from a signal handler --------------------

   Everything a handler needs lives in one struct that Swift allocates once
   and never frees, so the handlers touch no Swift state but one pointer.
   Only async-signal-safe calls below: tcsetattr, write, sigaction, raise. */

#define SB_MAX_SIGNAL 32

typedef struct {
    volatile sig_atomic_t armed;   /* 1 while curses owns the terminal */
    int tty_fd;                    /* where to write and whose modes to restore */
    int has_termios;
    struct termios termios;        /* the modes before curses started */
    int count;
    char bytes[512];               /* leave the alternate screen, show the cursor... */
    volatile int wake_fd;                 /* signals to deliver write their number here; -1 for none */
    volatile sig_atomic_t deliver_terminations; /* SIGTERM & co. go to the program first */
    volatile sig_atomic_t termination_pending;  /* the signal delivered: the same one again ends it */
    volatile sig_atomic_t continues;            /* SIGCONTs received so far */
    volatile sig_atomic_t lent;                 /* 1 while another program has the terminal */
    volatile pid_t lent_group;                  /* its process group, killed if this process is ended */
    int installed[SB_MAX_SIGNAL];
    struct sigaction previous[SB_MAX_SIGNAL];
} sb_restore_state;

/* Puts the terminal back the way it was, once. Async-signal-safe. */
static inline void sb_restore_now(sb_restore_state *s) {
    if (!__atomic_exchange_n(&s->armed, 0, __ATOMIC_SEQ_CST)) return;
    int saved = errno;
    const char *p = s->bytes;
    int left = s->count;
    while (left > 0) {
        ssize_t n = write(s->tty_fd, p, (size_t)left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= (int)n;
    }
    if (s->has_termios) tcsetattr(s->tty_fd, TCSANOW, &s->termios);
    errno = saved;
}

/* For SIGTERM, SIGHUP and crashes: restore, give the signal back to whoever
   had it before us, and let it act. A fault the kernel raised (si_code > 0)
   happens again when the handler returns; a sent signal is raised again. */
static inline void sb_handle_fatal(sb_restore_state *s, int sig, siginfo_t *info) {
    int saved = errno;
    sb_restore_now(s);
    pid_t group = s->lent_group;
    if (group > 0) kill(-group, SIGKILL);
    if (sig > 0 && sig < SB_MAX_SIGNAL && s->installed[sig]) {
        sigaction(sig, &s->previous[sig], NULL);
        s->installed[sig] = 0;
    } else {
        signal(sig, SIG_DFL);
    }
    if (info == NULL || info->si_code <= 0 || sig == SIGTERM || sig == SIGHUP || sig == SIGINT || sig == SIGQUIT) {
        raise(sig);
    }
    errno = saved;
}

/* Writes the signal's number to the wake pipe. */
static inline void sb_deliver(sb_restore_state *s, int sig) {
    int saved = errno;
    if (s->wake_fd >= 0) {
        unsigned char c = (unsigned char)sig;
        (void)!write(s->wake_fd, &c, 1);
    }
    errno = saved;
}

/* For SIGCONT: counts it (see sb_stop_process_group), then delivers it. */
static inline void sb_handle_continue(sb_restore_state *s, int sig) {
    __atomic_add_fetch(&s->continues, 1, __ATOMIC_SEQ_CST);
    sb_deliver(s, sig);
}

/* Stops the process group as the terminal's Ctrl-Z would, with SIGTSTP's
   default action, and returns once continued (a SIGCONT counted by
   sb_handle_continue), or after `patience_ms` without one: a group no
   shell controls (orphaned) is not stopped at all. The default action
   stays in place until then, because the signal may be taken by another
   thread a moment after kill returns (this one may block it). */
static inline void sb_stop_process_group(sb_restore_state *s, int patience_ms) {
    struct sigaction dfl, previous;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &previous);
    int before = __atomic_load_n(&s->continues, __ATOMIC_SEQ_CST);
    kill(0, SIGTSTP);
    struct timespec step = { 0, 5 * 1000 * 1000 };
    for (int waited = 0; waited < patience_ms && __atomic_load_n(&s->continues, __ATOMIC_SEQ_CST) == before; waited += 5) {
        nanosleep(&step, NULL);
    }
    sigaction(SIGTSTP, &previous, NULL);
}

/* For SIGTERM, SIGHUP, SIGINT, SIGQUIT: the first goes to the program, so
   it can quit in order, when it asked for them; another kind after it is
   part of the same stop (login and systemd send SIGTERM, then SIGHUP) and
   is dropped; otherwise, and for the same one again, restore the terminal
   and end as the signal would have. While the terminal is lent, SIGINT and
   SIGQUIT (the keys of the other program) are dropped too. */
static inline void sb_handle_terminate(sb_restore_state *s, int sig, siginfo_t *info) {
    if (s->lent && (sig == SIGINT || sig == SIGQUIT)) return;
    if (s->deliver_terminations && s->wake_fd >= 0) {
        /* Only the first signal is ever written: a handler interrupted by another sees it or 0. */
        sig_atomic_t first = 0;
        if (__atomic_compare_exchange_n(&s->termination_pending, &first, sig, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            sb_deliver(s, sig);
            return;
        }
        if (first != sig) return;
    }
    sb_handle_fatal(s, sig, info);
}

/* Installs `handler` for `sig` unless the signal is ignored (nohup), and
   remembers what was there. Returns 1 when installed. */
static inline int sb_install(sb_restore_state *s, int sig, void (*handler)(int, siginfo_t *, void *)) {
    if (sig <= 0 || sig >= SB_MAX_SIGNAL || s->installed[sig]) return 0;
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0) return 0;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sa.sa_sigaction = handler;
    s->previous[sig] = old;
    s->installed[sig] = 1;
    if (sigaction(sig, &sa, NULL) != 0) {
        s->installed[sig] = 0;
        return 0;
    }
    return 1;
}

/* Sets `sig` to be ignored, remembering what was there for sb_uninstall.
   Returns 1 when done (or already done). Ignored, not handled: a handler
   would make a read or write from the background restart into the same
   signal over and over, where an ignored one makes it fail (read) or go
   ahead (write); and an ignored signal is not even queued. */
static inline int sb_ignore(sb_restore_state *s, int sig) {
    if (sig <= 0 || sig >= SB_MAX_SIGNAL) return 0;
    if (s->installed[sig]) return 1;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_IGN;
    if (sigaction(sig, &sa, &old) != 0) return 0;
    s->previous[sig] = old;
    s->installed[sig] = 1;
    return 1;
}

/* Whether `sig` is ignored now (for tests and checks). */
static inline int sb_is_ignored(int sig) {
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0) return 0;
    return !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN;
}

/* Puts back what `sb_install` replaced. */
static inline void sb_uninstall(sb_restore_state *s, int sig) {
    if (sig <= 0 || sig >= SB_MAX_SIGNAL || !s->installed[sig]) return;
    sigaction(sig, &s->previous[sig], NULL);
    s->installed[sig] = 0;
}

/* Whether `handler` is what `sig` runs now (for tests and checks). */
static inline int sb_handler_is(int sig, void (*handler)(int, siginfo_t *, void *)) {
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0) return 0;
    return (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == handler;
}

#endif
