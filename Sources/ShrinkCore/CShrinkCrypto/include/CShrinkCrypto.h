// The system's libcrypto (OpenSSL 3: Debian's libssl-dev to build, libssl3 at run time), loaded with dlopen on first
// use: linked, every process would map it at start, thumbnails that sign nothing and hash nothing included (about
// 0.7 ms of CPU and 120 page faults; BENCHMARKS.md, "Start-up"). SHA-256 and HMAC through its one-shot calls, which
// keep no state between calls.
#ifndef CSHRINKCRYPTO_H
#define CSHRINKCRYPTO_H

#include <stddef.h>

/// Loads libcrypto the first time: 0 when it is loaded, -1 when not (then `cshrink_crypto_load_error` says why).
int cshrink_crypto_load(void);
const char *cshrink_crypto_load_error(void);

/// The SHA-256 digest of `count` bytes at `data` into `out` (32 bytes); 1 on success, 0 when libcrypto fails or
/// cannot be loaded.
int cshrink_sha256(const void *data, size_t count, unsigned char *out);

/// The HMAC of `message` under `key` with SHA-1 (`sha1` 1) or SHA-256 (`sha1` 0) into `out` (20 or 32 bytes); the
/// MAC's length, 0 when libcrypto fails or cannot be loaded. `key` must point at memory even for an empty key.
unsigned cshrink_hmac(int sha1, const void *key, size_t key_length, const void *message, size_t message_length,
                      unsigned char *out);

#endif
