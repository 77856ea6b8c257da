/* zlib-ng's arch/x86/x86_features.c compiled for xsave (configure would pass the matching -m flags). */
#if defined(__x86_64__) && defined(__clang__)
#include "zbuild.h"
#include <immintrin.h>
#pragma clang attribute push (__attribute__((target("xsave"))), apply_to = function)
#include "arch/x86/x86_features.c"
#pragma clang attribute pop
#endif
