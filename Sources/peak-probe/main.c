/* For `switchboard-bench roster`: runs a program to its exit and prints
   "SECONDS PEAK-KIB STATUS": exec to exit, the most memory it held
   (ru_maxrss), and its exit status (128 + the signal for a signal).

   A program spawned by a big process inherits that process's peak in
   ru_maxrss (the kernel records the memory it leaves at exec, and a
   vfork'd child leaves its parent's), so the bench has this small
   program spawn what it measures. Usage: peak-probe STDOUT-FILE PROGRAM
   [ARGUMENT...]; standard input and error are /dev/null. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fputs("usage: peak-probe STDOUT-FILE PROGRAM [ARGUMENT...]\n", stderr);
        return 64;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid;
    if (posix_spawn(&pid, argv[2], &actions, NULL, argv + 2, environ) != 0) {
        perror(argv[2]);
        return 127;
    }
    int status;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {}
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%.6f %ld %d\n", seconds, usage.ru_maxrss, code);
    return 0;
}
