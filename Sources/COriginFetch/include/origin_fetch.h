#ifndef ORIGIN_FETCH_H
#define ORIGIN_FETCH_H
// One HTTP(S) GET of an origin's source with libcurl, for filterserve's OriginFetcher: connected to an address
// checked beforehand (no lookup of its own), no redirect followed, no proxy taken from the environment, the body
// bounded while it streams and the whole exchange over by a deadline.
#include <stddef.h>
#include <stdint.h>

/// Receives the body of a 200 answer as it streams; returns 0 to go on, anything else to stop the transfer.
typedef int (*origin_fetch_body)(void *context, const uint8_t *bytes, size_t count);
/// Nonzero once the fetch is no longer wanted (polled while the transfer runs).
typedef int (*origin_fetch_cancelled)(void *context);

typedef enum origin_fetch_outcome {
    ORIGIN_FETCH_ANSWERED = 0,  // an answer came: see status (its body stopped early unless it is a 200)
    ORIGIN_FETCH_TIMED_OUT,
    ORIGIN_FETCH_CANCELLED,
    ORIGIN_FETCH_FAILED         // no answer: message says why
} origin_fetch_outcome;

typedef struct origin_fetch_answer {
    long status;               // the final answer's HTTP status; 0 when none came
    int64_t declared_length;   // its Content-Length, -1 when none
    int over_limit;            // a 200 whose body (declared or streamed) is over max_bytes: stopped there
    char location[4096];       // the absolute URL a redirect answer points to, "" when none
    char message[256];         // libcurl's account of a failure
} origin_fetch_answer;

/// GETs `url`. `pin` ("HOST:PORT:ADDRESS", or NULL for a literal address) makes the connection go to the address
/// that was checked, so a second lookup cannot rebind the name. Only http and https are spoken.
origin_fetch_outcome origin_fetch_get(const char *url, const char *pin, const char *user_agent, long timeout_ms,
                                      long connect_timeout_ms, int64_t max_bytes, origin_fetch_body body,
                                      origin_fetch_cancelled cancelled, void *context, origin_fetch_answer *answer);

#endif
