#ifndef SWITCHBOARD_CSYSTEM_H
#define SWITCHBOARD_CSYSTEM_H

/* What the program and ProcessKit need of the C library that Swift cannot
   reach: the pseudo-terminal calls Glibc's Swift module does not export,
   ioctl and prctl (which are variadic), and what sits behind _GNU_SOURCE
   (spawn flags and actions, pipe2, O_TMPFILE), and malloc_trim. Every constant comes from
   the system's own headers; no number is written here. */

#include <spawn.h>
#include <stddef.h>
#include <termios.h>

/* Opens a new pseudo-terminal (posix_openpt, grantpt, unlockpt, ptsname_r).
   Returns the master descriptor, close-on-exec and not becoming this
   process's controlling terminal, and writes the slave's path into `name`;
   -1 with errno set when that fails. */
int cpt_open_master(char *name, size_t capacity);

/* Opens the slave at `name` read-write, close-on-exec, without making it
   the controlling terminal. -1 with errno set when that fails. */
int cpt_open_slave(const char *name);

/* Sets the terminal's size (TIOCSWINSZ) in character cells. 0, or -1 with errno. */
int cpt_set_window_size(int fd, unsigned short rows, unsigned short columns);

/* Reads the terminal's size (TIOCGWINSZ). 0, or -1 with errno. */
int cpt_get_window_size(int fd, unsigned short *rows, unsigned short *columns);

/* Adds POSIX_SPAWN_SETSID to the attributes' flags: the child starts a
   session of its own. 0, or an error number (ENOTSUP where the C library
   has no such flag). */
int cpt_spawnattr_add_setsid(posix_spawnattr_t *attributes);

/* Adds "close every descriptor from `lowest` up" to the file actions
   (posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later), so the
   child inherits nothing else of ours. 0, or an error number (ENOSYS where
   the C library cannot). */
int cpt_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* Adds "make the child's process group the foreground of the terminal
   `fd`" to the file actions (posix_spawn_file_actions_addtcsetpgrp_np,
   glibc 2.35 and later): it has the terminal before it runs. 0, or an
   error number (ENOSYS where the C library cannot). */
int cpt_spawn_add_foreground(posix_spawn_file_actions_t *actions, int fd);

/* Makes this process the reaper of its descendants that are orphaned
   (PR_SET_CHILD_SUBREAPER): they become its children, so it can find and
   end them. 0, or -1 with errno. */
int cpt_become_subreaper(void);

/* A pipe whose two ends are close-on-exec (pipe2). 0, or -1 with errno. */
int cpt_pipe(int fds[2]);

/* An empty file with no name in `folder`, read-write and close-on-exec
   (O_TMPFILE, else a named file unlinked at once): for a child's output,
   which nothing can find and which vanishes when closed. -1 with errno
   when that fails. */
int cpt_anonymous_file(const char *folder);

/* Gives memory that was freed back to the system (malloc_trim): a thread
   that built something big and let its scratch go leaves it to the C
   library otherwise, counted as the process's. */
void cpt_release_free_memory(void);

#endif
