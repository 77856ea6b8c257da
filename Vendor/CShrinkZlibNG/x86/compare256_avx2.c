/* zlib-ng's arch/x86/compare256_avx2.c compiled for avx2,bmi2 (configure would pass the matching -m flags). */
#if defined(__x86_64__) && defined(__clang__)
#include "zbuild.h"
#include <immintrin.h>
#pragma clang attribute push (__attribute__((target("avx2,bmi2"))), apply_to = function)
#include "arch/x86/compare256_avx2.c"
#pragma clang attribute pop
#endif
