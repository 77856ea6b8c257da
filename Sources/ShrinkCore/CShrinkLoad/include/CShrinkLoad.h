// Loading a C library on first use: the C modules of codecs that only some files need (libheif, libde265, dav1d,
// libtiff, libjxl, libwebp, cgif, TurboJPEG's transforms…), of Little CMS (only tagged images need it) and of
// libcrypto (only hashing and signing need it) resolve their functions through this instead of linking the library,
// so a process that never uses one never maps it (each linked library cost every start its loading and relocation).
#ifndef CSHRINKLOAD_H
#define CSHRINKLOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/// One library to load: its soname, the names of the functions wanted and where their addresses go, and what
/// happened. Declare it static with `SHRINK_LIBRARY(soname, names, slots)`; `shrink_library_load` fills it once.
typedef struct {
    const char *soname;
    const char *const *names;
    void **slots;
    size_t count;
    pthread_mutex_t lock;
    atomic_int state;        // 0 not tried, 1 loaded, -1 failed
    char message[256];
} shrink_library;

#define SHRINK_LIBRARY(soname, names, slots) \
    { (soname), (names), (void **)(slots), sizeof(names) / sizeof((names)[0]), PTHREAD_MUTEX_INITIALIZER, 0, "" }

#define SHRINK_LIBRARY_POINTER(name) __typeof__(&name) name;
#define SHRINK_LIBRARY_NAME(name) #name,

/// Defines, for the functions a list macro names (`FUNCTIONS(X)` expanding `X(name)` for each), a table `api.f` of
/// pointers typed from the library's own declarations, and `PREFIX_load()` (0 when loaded, -1 when not) and
/// `PREFIX_load_error()` (why not) over `shrink_library_load`.
#define SHRINK_LIBRARY_API(PREFIX, soname, FUNCTIONS) \
    struct PREFIX##_api { FUNCTIONS(SHRINK_LIBRARY_POINTER) }; \
    static union { \
        struct PREFIX##_api f; \
        void *slots[sizeof(struct PREFIX##_api) / sizeof(void *)]; \
    } api; \
    static const char *const names[] = { FUNCTIONS(SHRINK_LIBRARY_NAME) }; \
    _Static_assert(sizeof names / sizeof *names == sizeof api.slots / sizeof *api.slots, "one name per function"); \
    static shrink_library library = SHRINK_LIBRARY(soname, names, api.slots); \
    int PREFIX##_load(void) { return shrink_library_load(&library); } \
    const char *PREFIX##_load_error(void) { \
        shrink_library_load(&library); \
        return library.message; \
    }

/// Defines a function named and typed as the library's own `name` that calls it through the table, loading the library
/// on the first call (`shrink_library_require`): Swift code calls the library's API as declared in its headers, and
/// the process maps the library only when it is first used. `params` and `args` are the declaration's parameter list
/// and the same names as arguments; `SHRINK_FORWARD_VOID` is for functions that return nothing. Forwarders are
/// hidden: out of the binary's dynamic symbols, so no library loaded later (one that links the same library, or the
/// library calling its own functions) binds to them instead of to the library. (A header that declares its functions
/// with default visibility, as libwebp's do through WEBP_EXTERN, must be told hidden before it is included.)
#define SHRINK_FORWARD(ret, name, params, args) \
    __attribute__((visibility("hidden"))) ret name params { \
        shrink_library_require(&library); \
        return api.f.name args; \
    }
#define SHRINK_FORWARD_VOID(name, params, args) \
    __attribute__((visibility("hidden"))) void name params { \
        shrink_library_require(&library); \
        api.f.name args; \
    }

/// Opens the library (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves every name into its slot, the first time it is
/// called for `library` (thread-safe; later calls cost one atomic load). Returns 0 when all are resolved, -1 when
/// not; then `library->message` says why (dlopen's message, or the name it lacks).
int shrink_library_load(shrink_library *library);

/// `shrink_library_load` for a forwarder (`SHRINK_FORWARD`), which has no way to return an error: when the library
/// cannot be loaded it prints why and aborts. The Swift code that uses such a library checks `PREFIX_load()` before
/// its first call and throws a typed error, so this is reached only by a call that skipped that check. After the first
/// call, one atomic load.
void shrink_library_require(shrink_library *library);

#endif
