/* measure CMD [ARG...] — runs CMD (its output to /dev/null) and prints its CPU time (user + sys, in microseconds)
 * and peak RSS (KiB) as wait4 reports them for the child alone, and its wall time (microseconds, fork to exit): a small launcher, so the child's peak does not
 * start from a large parent's (ru_maxrss survives exec) and no launcher's own CPU is counted. Exit status:
 * CMD's, or 127 when it cannot be run. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: measure CMD [ARG...]\n"); return 2; }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 127; }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) { dup2(null, 1); dup2(null, 2); }
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 127; }
    clock_gettime(CLOCK_MONOTONIC, &end);
    long wall = (end.tv_sec - start.tv_sec) * 1000000L + (end.tv_nsec - start.tv_nsec) / 1000;
    long us = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    printf("%ld %ld %ld\n", us, usage.ru_maxrss, wall);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
