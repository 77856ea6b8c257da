#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc mallinfo2: arena chunks in use plus
/// chunks mapped on their own); 0 where the C library cannot tell.
size_t csys_heap_bytes_in_use(void);
/// Bytes the allocator holds from the system (arenas plus its own mappings); 0 where unknown.
size_t csys_heap_bytes_from_system(void);

/// Returns the C allocator's free memory to the system where it can (glibc malloc_trim); a no-op elsewhere.
void csys_trim_heap(void);

/// Caps the C allocator's arenas (glibc M_ARENA_MAX; each thread otherwise may get one, each keeping its
/// free memory): call before threads start. 0 on success, -1 where unsupported.
int csys_limit_heap_arenas(int count);

/// Processors this process may run on (its affinity mask where the system has one), at least 1.
int csys_cpu_count(void);

/// Names the calling thread (shown in /proc/PID/task/*/comm and debuggers); at most 15 characters.
void csys_name_thread(const char *name);

/// Registers a read-only file mapping so that a SIGBUS inside it (the file was truncated while mapped) maps
/// a zero page over the faulting page and marks the mapping instead of killing the process. The first call
/// installs the SIGBUS handler; faults outside registered mappings go to the previous handler. Returns a
/// slot for csys_guard_faulted and csys_guard_unregister, or -1 when the handler cannot be installed or
/// every slot (4096) is taken: the caller must then not map the file.
int csys_guard_register(const void *base, size_t length);

/// 1 when a fault inside the slot's mapping was repaired with a zero page (the data read is not the file's).
int csys_guard_faulted(int slot);

/// Forgets the slot's mapping; call before unmapping it.
void csys_guard_unregister(int slot);

#endif
