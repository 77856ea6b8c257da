// The system's libcrypto (OpenSSL 3: Debian's libssl-dev to build, libssl3 at run time) as a module: SHA-256 and
// HMAC-SHA256 through its one-shot calls, which keep no state between calls.
#include <openssl/evp.h>
#include <openssl/hmac.h>
