#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc mallinfo2: arena chunks in use plus
/// chunks mapped on their own); 0 where the C library cannot tell.
size_t csys_heap_bytes_in_use(void);

/// Processors this process may run on (its affinity mask where the system has one), at least 1.
int csys_cpu_count(void);

/// Names the calling thread (shown in /proc/PID/task/*/comm and debuggers); at most 15 characters.
void csys_name_thread(const char *name);

#endif
