// Loading a C library on first use: see include/CShrinkLoad.h.
#include "CShrinkLoad.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int shrink_library_load(shrink_library *library) {
    int state = atomic_load_explicit(&library->state, memory_order_acquire);
    if (state != 0) return state > 0 ? 0 : -1;
    pthread_mutex_lock(&library->lock);
    state = atomic_load_explicit(&library->state, memory_order_relaxed);
    if (state == 0) {
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        state = 1;
        if (!handle) {
            snprintf(library->message, sizeof library->message, "%s", dlerror());
            state = -1;
        }
        for (size_t i = 0; state > 0 && i < library->count; i++) {
            if (!(library->slots[i] = dlsym(handle, library->names[i]))) {
                snprintf(library->message, sizeof library->message, "%s lacks %s", library->soname, library->names[i]);
                state = -1;
            }
        }
        atomic_store_explicit(&library->state, state, memory_order_release);
    }
    pthread_mutex_unlock(&library->lock);
    return state > 0 ? 0 : -1;
}

void shrink_library_require(shrink_library *library) {
    if (atomic_load_explicit(&library->state, memory_order_acquire) > 0) return;
    if (shrink_library_load(library) == 0) return;
    fprintf(stderr, "shrink: %s could not be loaded: %s\n", library->soname, library->message);
    abort();
}
