/* zlib-ng's arch/x86/crc32_pclmulqdq.c compiled for pclmul,sse4.2 (configure would pass the matching -m flags). */
#if defined(__x86_64__) && defined(__clang__)
#include "zbuild.h"
#include <immintrin.h>
#pragma clang attribute push (__attribute__((target("pclmul,sse4.2"))), apply_to = function)
#include "arch/x86/crc32_pclmulqdq.c"
#pragma clang attribute pop
#endif
