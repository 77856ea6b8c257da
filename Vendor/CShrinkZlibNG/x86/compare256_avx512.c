/* zlib-ng's arch/x86/compare256_avx512.c compiled for avx512f,avx512dq,avx512bw,avx512vl,bmi2 (configure would pass the matching -m flags). */
#if defined(__x86_64__) && defined(__clang__)
#include "zbuild.h"
#include <immintrin.h>
#pragma clang attribute push (__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,bmi2"))), apply_to = function)
#include "arch/x86/compare256_avx512.c"
#pragma clang attribute pop
#endif
