#ifndef CSHRINK_CURL_H
#define CSHRINK_CURL_H
#include <stddef.h>
#include <stdint.h>

/// Why a transfer ended (cshrink_fetch's result).
enum {
    CSHRINK_FETCH_OK = 0,
    CSHRINK_FETCH_CONNECT_TIMEOUT = 1,
    CSHRINK_FETCH_FIRST_BYTE_TIMEOUT = 2,
    CSHRINK_FETCH_TOTAL_TIMEOUT = 3,
    CSHRINK_FETCH_REFUSED_ADDRESS = 4,   // the connect-time address check said no
    CSHRINK_FETCH_ABORTED = 5,           // a callback stopped it (too large, no budget, cancelled)
    CSHRINK_FETCH_FAILED = 6             // anything else: message in `error`
};

/// One HTTP(S) exchange, one hop (a GET unless `method` says otherwise): redirects are not followed, proxies are
/// never used, only http and https are allowed, no content decoding, the path sent as written (no dot segment
/// resolved). Connections go only to `pinned_address` (every address curl is about to connect
/// to is compared with it), and `resolve` ("host:port:address") makes curl use that address for the URL's host
/// name while TLS still verifies the name.
typedef struct {
    // In.
    const char *url;
    const char *resolve;            // NULL for an IP literal URL
    const char *pinned_address;     // the only address connected to
    const char *user_agent;
    const char *method;             // NULL or "GET"; "HEAD" (no body read) or "PUT" (sends `body`; give its
                                    // Content-Type among `headers`)
    const char *const *headers;     // `header_count` request header lines ("Name: value")
    size_t header_count;
    const unsigned char *body;      // a PUT's body (`body_length` bytes)
    size_t body_length;
    long connect_timeout_ms;
    long first_byte_timeout_ms;     // from the start until the first response header line
    long total_timeout_ms;          // the whole transfer
    void *context;
    /// A header line (status line included, CRLF kept). Return 0 to abort.
    int (*on_header)(void *context, const char *line, size_t length);
    /// Body bytes. Return 0 to abort.
    int (*on_data)(void *context, const char *data, size_t length);
    /// Polled during the transfer: non-zero aborts (the request was cancelled).
    int (*is_cancelled)(void *context);
    // Out.
    long status;                    // the HTTP status, 0 when none arrived
    int curl_code;
    char error[256];
} cshrink_fetch_t;

/// Runs the transfer on the calling thread (it blocks); returns a CSHRINK_FETCH_* value.
int cshrink_fetch(cshrink_fetch_t *fetch);

/// curl's version string (`libcurl/7.88.1 OpenSSL/3.0.x …`).
const char *cshrink_curl_version(void);

#endif
