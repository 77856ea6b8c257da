#define _GNU_SOURCE
#include "CSystem.h"
#include <unistd.h>
#include <pthread.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sched.h>
#endif

size_t csys_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}

int csys_cpu_count(void) {
#if defined(__GLIBC__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void csys_name_thread(const char *name) {
#if defined(__GLIBC__)
    pthread_setname_np(pthread_self(), name);
#else
    (void)name;
#endif
}
