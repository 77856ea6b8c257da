// libcrypto through dlopen: see include/CShrinkCrypto.h.
#define OPENSSL_SUPPRESS_DEPRECATED // HMAC(): the one-shot call, deprecated in OpenSSL 3 and kept by it
#include "CShrinkCrypto.h"

#include "CShrinkLoad.h"
#include <limits.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

// One pointer per libcrypto function Shrink calls, typed from OpenSSL's own declarations.
#define SHRINK_CRYPTO_FUNCTIONS(X) X(EVP_Digest) X(EVP_sha256) X(EVP_sha1) X(HMAC)

SHRINK_LIBRARY_API(cshrink_crypto, "libcrypto.so.3", SHRINK_CRYPTO_FUNCTIONS)

int cshrink_sha256(const void *data, size_t count, unsigned char *out) {
    if (cshrink_crypto_load() != 0) return 0;
    unsigned int length = 0;
    return api.f.EVP_Digest(data, count, out, &length, api.f.EVP_sha256(), NULL) == 1 && length == 32;
}

unsigned cshrink_hmac(int sha1, const void *key, size_t key_length, const void *message, size_t message_length,
                      unsigned char *out) {
    if (cshrink_crypto_load() != 0 || key_length > INT_MAX) return 0;
    unsigned int length = 0;
    const unsigned char *mac = api.f.HMAC(sha1 ? api.f.EVP_sha1() : api.f.EVP_sha256(), key, (int)key_length,
                                          message, message_length, out, &length);
    return mac ? length : 0;
}
