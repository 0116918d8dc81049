#include "origin_fetch.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_status = CURLE_FAILED_INIT;

// libcurl's global state is set up once, before any handle (curl_global_init is not thread-safe on every build).
static void global_init(void) { global_status = curl_global_init(CURL_GLOBAL_DEFAULT); }

typedef struct transfer {
    CURL *handle;
    origin_fetch_answer *answer;
    int64_t max_bytes;
    int64_t received;
    origin_fetch_body body;
    origin_fetch_cancelled cancelled;
    void *context;
    int stopped;  // the transfer was stopped on purpose (a non-200 body, a body over the limit)
} transfer;

// The absolute URL a redirect points to, as libcurl resolves its Location against the URL asked for. One too long
// to hold is left out: the answer then reads as a plain status.
static void keep_location(transfer *t) {
    char *location = NULL;
    if (t->answer->location[0] == 0 && curl_easy_getinfo(t->handle, CURLINFO_REDIRECT_URL, &location) == CURLE_OK
        && location != NULL && strlen(location) < sizeof t->answer->location) {
        strcpy(t->answer->location, location);
    }
}

static int starts_with(const char *line, size_t length, const char *name) {
    size_t n = strlen(name);
    return length >= n && strncasecmp(line, name, n) == 0;
}

// Called for every header line. A status line starts an answer (an interim 1xx included); at the blank line that
// ends its headers the answer is known: an interim one is skipped, a 200 declaring more than the limit is refused
// before any of its body is read.
static size_t on_header(char *line, size_t size, size_t count, void *user) {
    transfer *t = user;
    size_t length = size * count;
    if (starts_with(line, length, "HTTP/")) {
        t->answer->declared_length = -1;
        return length;
    }
    if (starts_with(line, length, "content-length:")) {
        int64_t value = 0;
        size_t i = strlen("content-length:");
        while (i < length && (line[i] == ' ' || line[i] == '\t')) i++;
        size_t digits = 0;
        for (; i < length && line[i] >= '0' && line[i] <= '9'; i++, digits++) {
            if (value > (INT64_MAX - 9) / 10) { value = INT64_MAX; break; }
            value = value * 10 + (line[i] - '0');
        }
        if (digits > 0) t->answer->declared_length = value;
        return length;
    }
    if (length > 2 || (length > 0 && line[0] != '\r' && line[0] != '\n')) return length;
    long status = 0;
    curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 100 && status < 200) return length;
    t->answer->status = status;
    keep_location(t);
    if (status == 200 && t->answer->declared_length > t->max_bytes) {
        t->answer->over_limit = 1;
        t->stopped = 1;
        return 0;
    }
    return length;
}

// The body of a 200 goes to the caller within the limit; any other answer's body is not read at all.
static size_t on_body(char *bytes, size_t size, size_t count, void *user) {
    transfer *t = user;
    size_t length = size * count;
    if (t->answer->status != 200) {
        t->stopped = 1;
        return 0;
    }
    if ((int64_t)length > t->max_bytes - t->received) {
        t->answer->over_limit = 1;
        t->stopped = 1;
        return 0;
    }
    t->received += (int64_t)length;
    if (t->body(t->context, (const uint8_t *)bytes, length) != 0) {
        t->stopped = 1;
        return 0;
    }
    return length;
}

static int on_progress(void *user, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    (void)total_down; (void)now_down; (void)total_up; (void)now_up;
    transfer *t = user;
    return t->cancelled != NULL && t->cancelled(t->context) ? 1 : 0;
}

origin_fetch_outcome origin_fetch_get(const char *url, const char *pin, const char *user_agent, long timeout_ms,
                                      long connect_timeout_ms, int64_t max_bytes, origin_fetch_body body,
                                      origin_fetch_cancelled cancelled, void *context, origin_fetch_answer *answer) {
    memset(answer, 0, sizeof *answer);
    answer->declared_length = -1;
    pthread_once(&global_once, global_init);
    if (global_status != CURLE_OK) {
        snprintf(answer->message, sizeof answer->message, "libcurl could not start: %s", curl_easy_strerror(global_status));
        return ORIGIN_FETCH_FAILED;
    }
    CURL *handle = curl_easy_init();
    if (handle == NULL) {
        snprintf(answer->message, sizeof answer->message, "libcurl could not make a handle");
        return ORIGIN_FETCH_FAILED;
    }
    struct curl_slist *resolve = NULL;
    if (pin != NULL) {
        resolve = curl_slist_append(NULL, pin);
        if (resolve == NULL) {
            curl_easy_cleanup(handle);
            snprintf(answer->message, sizeof answer->message, "out of memory");
            return ORIGIN_FETCH_FAILED;
        }
    }
    transfer t = { handle, answer, max_bytes, 0, body, cancelled, context, 0 };
    char error[CURL_ERROR_SIZE] = { 0 };
    curl_easy_setopt(handle, CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85: protocols by name; the bit mask before it
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    // A proxy named in the environment would connect elsewhere than the checked address.
    curl_easy_setopt(handle, CURLOPT_PROXY, "");
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(handle, CURLOPT_USERAGENT, user_agent);
    if (resolve != NULL) curl_easy_setopt(handle, CURLOPT_RESOLVE, resolve);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
    CURLcode code = curl_easy_perform(handle);
    if (answer->status != 0) keep_location(&t);
    origin_fetch_outcome outcome;
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && t.stopped && answer->status != 0)) {
        outcome = ORIGIN_FETCH_ANSWERED;
    } else if (code == CURLE_OPERATION_TIMEDOUT) {
        outcome = ORIGIN_FETCH_TIMED_OUT;
    } else if (code == CURLE_ABORTED_BY_CALLBACK) {
        outcome = ORIGIN_FETCH_CANCELLED;
    } else {
        outcome = ORIGIN_FETCH_FAILED;
        snprintf(answer->message, sizeof answer->message, "%s", error[0] != 0 ? error : curl_easy_strerror(code));
    }
    curl_slist_free_all(resolve);
    curl_easy_cleanup(handle);
    return outcome;
}
