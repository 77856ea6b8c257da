#define _GNU_SOURCE
#include "CShrinkSystem.h"
#include <unistd.h>
#include <pthread.h>
#include <string.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
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

size_t csys_heap_bytes_from_system(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    return m.arena + m.hblkhd;
#else
    return 0;
#endif
}

void csys_trim_heap(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

int csys_limit_heap_arenas(int count) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, count) == 1 ? 0 : -1;
#else
    (void)count;
    return -1;
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

// MARK: Mapped-input guard

// A registered mapping: `base` is 0 when the slot holds none. Slots are claimed with a CAS on `state`, so
// registering needs no lock and the signal handler reads them without one.
typedef struct {
    _Atomic int state;          // 0 free, 1 claimed
    _Atomic uintptr_t base;
    _Atomic size_t length;
    _Atomic int faulted;
} csys_guard_slot;

#define CSYS_GUARD_SLOTS 4096
static csys_guard_slot csys_guard_slots[CSYS_GUARD_SLOTS];
static struct sigaction csys_previous_sigbus;
static pthread_once_t csys_guard_once = PTHREAD_ONCE_INIT;
static int csys_guard_ready;
static uintptr_t csys_page_size = 4096;

// SIGBUS inside a registered mapping means the file behind it shrank under us: put a zero page where the
// fault was, mark the mapping, and return so the read is retried (and reads zeros). Anything else goes to
// the handler that was there before (or the default action, which ends the process as it would have).
static void csys_sigbus(int sig, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < CSYS_GUARD_SLOTS; i++) {
        uintptr_t base = atomic_load_explicit(&csys_guard_slots[i].base, memory_order_acquire);
        if (base == 0 || address < base) continue;
        if (address - base >= atomic_load_explicit(&csys_guard_slots[i].length, memory_order_relaxed)) continue;
        void *page = (void *)(address & ~(csys_page_size - 1));
        if (mmap(page, csys_page_size, PROT_READ,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_store_explicit(&csys_guard_slots[i].faulted, 1, memory_order_release);
            return;
        }
        break;
    }
    if (csys_previous_sigbus.sa_flags & SA_SIGINFO) {
        csys_previous_sigbus.sa_sigaction(sig, info, context);
    } else if (csys_previous_sigbus.sa_handler != SIG_DFL && csys_previous_sigbus.sa_handler != SIG_IGN) {
        csys_previous_sigbus.sa_handler(sig);
    } else {
        // Restore the default and return: the faulting access runs again and takes the default action.
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &dfl, NULL);
    }
}

static void csys_guard_install(void) {
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0) csys_page_size = (uintptr_t)page;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = csys_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    csys_guard_ready = sigaction(SIGBUS, &action, &csys_previous_sigbus) == 0;
}

int csys_guard_register(const void *base, size_t length) {
    pthread_once(&csys_guard_once, csys_guard_install);
    if (!csys_guard_ready || !base || length == 0) return -1;
    for (int i = 0; i < CSYS_GUARD_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&csys_guard_slots[i].state, &expected, 1)) {
            atomic_store_explicit(&csys_guard_slots[i].faulted, 0, memory_order_relaxed);
            atomic_store_explicit(&csys_guard_slots[i].length, length, memory_order_relaxed);
            atomic_store_explicit(&csys_guard_slots[i].base, (uintptr_t)base, memory_order_release);
            return i;
        }
    }
    return -1;
}

int csys_guard_faulted(int slot) {
    if (slot < 0 || slot >= CSYS_GUARD_SLOTS) return 0;
    return atomic_load_explicit(&csys_guard_slots[slot].faulted, memory_order_acquire);
}

void csys_guard_unregister(int slot) {
    if (slot < 0 || slot >= CSYS_GUARD_SLOTS) return;
    atomic_store_explicit(&csys_guard_slots[slot].base, 0, memory_order_release);
    atomic_store_explicit(&csys_guard_slots[slot].state, 0, memory_order_release);
}
