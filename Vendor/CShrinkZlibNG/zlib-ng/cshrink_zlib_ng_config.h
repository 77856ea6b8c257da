/* Shrink's build configuration of the vendored zlib-ng (what its configure script would pass on the command line:
 * `./configure --zlib-compat --sprefix=cshrink_z_`), included first by zbuild.h. SwiftPM cannot set compiler
 * flags per architecture, so the x86 choices are made here, from the compiler's own macros. Symbols are
 * prefixed (include/zlib_name_mangling.h), so this copy never collides with the system's libz. */
#ifndef CSHRINK_ZLIB_NG_CONFIG_H
#define CSHRINK_ZLIB_NG_CONFIG_H

#define ZLIB_COMPAT 1
#define WITH_OPTIM 1
#define WITH_ALL_FALLBACKS 1
#define HAVE_VISIBILITY_HIDDEN 1
#define HAVE_VISIBILITY_INTERNAL 1
#define HAVE_ATTRIBUTE_ALIGNED 1
#define HAVE_BUILTIN_ASSUME_ALIGNED 1
#define HAVE_BUILTIN_CTZ 1
#define HAVE_BUILTIN_CTZLL 1

/* x86-64 with clang: the SSE2 to AVX-512 kernels, each compiled with its instruction set by a wrapper in x86/
 * (a pragma-pushed target attribute, in place of configure's per-file -m flags) and chosen at run time by
 * zlib-ng's own CPU detection. AVX-512 VNNI and VPCLMULQDQ are left out. Other architectures get zlib-ng's
 * portable C. */
#if defined(__x86_64__) && defined(__clang__)
#  define X86_FEATURES 1
#  define HAVE_CPUID_GNU 1
#  define X86_HAVE_XSAVE_INTRIN 1
#  define X86_SSE2 1
#  define X86_SSSE3 1
#  define X86_SSE41 1
#  define X86_SSE42 1
#  define X86_PCLMULQDQ_CRC 1
#  define X86_AVX2 1
#  define X86_AVX512 1
#endif

#endif
