#include "CShrinkCurl.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <sys/socket.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

typedef struct {
    cshrink_fetch_t *fetch;
    int saw_header;
    int refused;
    int first_byte_timeout;
    struct timespec start;
} state_t;

static long elapsed_ms(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)((now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000);
}

static size_t header_cb(char *buffer, size_t size, size_t count, void *user) {
    state_t *s = user;
    size_t n = size * count;
    s->saw_header = 1;
    return s->fetch->on_header(s->fetch->context, buffer, n) ? n : 0;
}

static size_t write_cb(char *data, size_t size, size_t count, void *user) {
    state_t *s = user;
    size_t n = size * count;
    return s->fetch->on_data(s->fetch->context, data, n) ? n : 0;
}

static int progress_cb(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    state_t *s = user;
    if (s->fetch->is_cancelled(s->fetch->context)) return 1;
    if (!s->saw_header && s->fetch->first_byte_timeout_ms > 0 && elapsed_ms(&s->start) > s->fetch->first_byte_timeout_ms) {
        s->first_byte_timeout = 1;
        return 1;
    }
    return 0;
}

/// The last line of defence: curl is about to open a socket to `address`; only the pinned address passes.
static curl_socket_t open_socket_cb(void *user, curlsocktype purpose, struct curl_sockaddr *address) {
    state_t *s = user;
    char text[INET6_ADDRSTRLEN] = {0};
    if (purpose != CURLSOCKTYPE_IPCXN) { s->refused = 1; return CURL_SOCKET_BAD; }
    if (address->family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&address->addr)->sin_addr, text, sizeof text);
    } else if (address->family == AF_INET6) {
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&address->addr)->sin6_addr, text, sizeof text);
    } else {
        s->refused = 1;
        return CURL_SOCKET_BAD;
    }
    if (s->fetch->pinned_address == NULL || strcmp(text, s->fetch->pinned_address) != 0) {
        s->refused = 1;
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

int cshrink_fetch(cshrink_fetch_t *f) {
    pthread_once(&init_once, global_init);
    f->status = 0;
    f->curl_code = 0;
    f->error[0] = 0;
    CURL *curl = curl_easy_init();
    if (!curl) {
        snprintf(f->error, sizeof f->error, "curl_easy_init failed");
        return CSHRINK_FETCH_FAILED;
    }
    state_t s = {.fetch = f};
    clock_gettime(CLOCK_MONOTONIC, &s.start);
    char errbuf[CURL_ERROR_SIZE] = {0};
    struct curl_slist *resolve = NULL;
    if (f->resolve) resolve = curl_slist_append(NULL, f->resolve);
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < f->header_count; i++) {
        struct curl_slist *next = curl_slist_append(headers, f->headers[i]);
        if (!next) {
            curl_slist_free_all(headers);
            curl_slist_free_all(resolve);
            curl_easy_cleanup(curl);
            snprintf(f->error, sizeof f->error, "out of memory for the request headers");
            return CSHRINK_FETCH_FAILED;
        }
        headers = next;
    }

    curl_easy_setopt(curl, CURLOPT_URL, f->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
    if (f->method && strcmp(f->method, "HEAD") == 0) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (f->method && strcmp(f->method, "PUT") == 0) {
        // The body from memory (the caller names its Content-Type); `Expect: 100-continue` would add a round
        // trip to every PUT.
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, f->body ? (const char *)f->body : "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)f->body_length);
        struct curl_slist *next = curl_slist_append(headers, "Expect:");
        if (next) headers = next;
    }
    if (headers) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (resolve) curl_easy_setopt(curl, CURLOPT_RESOLVE, resolve);
    if (f->user_agent) curl_easy_setopt(curl, CURLOPT_USERAGENT, f->user_agent);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, f->connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, f->total_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header_cb);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &s);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_cb);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &s);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress_cb);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &s);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket_cb);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &s);

    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    f->status = status;
    f->curl_code = (int)code;
    snprintf(f->error, sizeof f->error, "%s", errbuf[0] ? errbuf : curl_easy_strerror(code));
    curl_easy_cleanup(curl);
    curl_slist_free_all(resolve);
    curl_slist_free_all(headers);

    if (code == CURLE_OK) return CSHRINK_FETCH_OK;
    if (s.refused) return CSHRINK_FETCH_REFUSED_ADDRESS;
    if (s.first_byte_timeout) return CSHRINK_FETCH_FIRST_BYTE_TIMEOUT;
    if (code == CURLE_OPERATION_TIMEDOUT) return s.saw_header ? CSHRINK_FETCH_TOTAL_TIMEOUT : CSHRINK_FETCH_CONNECT_TIMEOUT;
    if (code == CURLE_WRITE_ERROR || code == CURLE_ABORTED_BY_CALLBACK) return CSHRINK_FETCH_ABORTED;
    return CSHRINK_FETCH_FAILED;
}

const char *cshrink_curl_version(void) { return curl_version(); }
