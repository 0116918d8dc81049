// OpenSSL's libcrypto, for filterserve's digests: SHA-256 (ETags, cache names, source validators) and HMAC-SHA256
// (signed URLs), with its constant-time comparison.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
