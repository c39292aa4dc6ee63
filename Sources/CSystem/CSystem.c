/* posix_openpt, grantpt, unlockpt, ptsname_r (XSI and GNU), pipe2,
   O_TMPFILE, mkostemp, POSIX_SPAWN_SETSID,
   posix_spawn_file_actions_addclosefrom_np and _addtcsetpgrp_np, malloc_trim (GNU):
   _GNU_SOURCE asks for all. */
#define _GNU_SOURCE 1

#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

int cpt_open_master(char *name, size_t capacity) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) goto failed;
    int error = ptsname_r(master, name, capacity);
    if (error != 0) {
        errno = error;
        goto failed;
    }
    return master;
failed:;
    int saved = errno;
    close(master);
    errno = saved;
    return -1;
}

int cpt_open_slave(const char *name) {
    return open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

int cpt_set_window_size(int fd, unsigned short rows, unsigned short columns) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = rows;
    size.ws_col = columns;
    return ioctl(fd, TIOCSWINSZ, &size);
}

int cpt_get_window_size(int fd, unsigned short *rows, unsigned short *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int cpt_spawnattr_add_setsid(posix_spawnattr_t *attributes) {
#ifdef POSIX_SPAWN_SETSID
    short flags = 0;
    int error = posix_spawnattr_getflags(attributes, &flags);
    if (error != 0) return error;
    return posix_spawnattr_setflags(attributes, (short)(flags | POSIX_SPAWN_SETSID));
#else
    (void)attributes;
    return ENOTSUP;
#endif
}

int cpt_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

int cpt_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int cpt_anonymous_file(const char *folder) {
#ifdef O_TMPFILE
    int fd = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
#endif
    /* A file system without O_TMPFILE: a named file, unlinked at once. */
    char name[4096];
    if (snprintf(name, sizeof name, "%s/processkit-XXXXXX", folder) >= (int)sizeof name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int named = mkostemp(name, O_CLOEXEC);
    if (named < 0) return -1;
    unlink(name);
    return named;
}

int cpt_spawn_add_foreground(posix_spawn_file_actions_t *actions, int fd) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, fd);
#else
    (void)actions;
    (void)fd;
    return ENOSYS;
#endif
}

int cpt_become_subreaper(void) {
#ifdef PR_SET_CHILD_SUBREAPER
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

void cpt_release_free_memory(void) {
    malloc_trim(0);
}
