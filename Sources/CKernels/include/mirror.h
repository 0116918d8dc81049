// Memory mapped twice, back to back: bytes [size, 2·size) are bytes [0, size) again, so a run of rows that wraps
// past the end of a ring buffer is still contiguous. The CPU backend's row caches keep a moving window of rows this
// way without copying the kept rows down as the window moves.
#ifndef FR_MIRROR_H
#define FR_MIRROR_H
#include <stddef.h>

/// A mirrored region: `base` maps `size` bytes (a multiple of the page size) twice; `fd` is its anonymous file.
typedef struct fr_mirror {
    unsigned char *base;
    size_t size;
    int fd;
} fr_mirror;

/// The page size the sizes are multiples of.
size_t fr_mirror_page(void);

/// Maps a new mirrored region of `size` bytes (a multiple of fr_mirror_page()), zero-filled. Returns 0 on success,
/// -1 when the system refuses (out of memory or address space, no anonymous files).
int fr_mirror_create(fr_mirror *mirror, size_t size);

/// Grows `mirror` to `size` bytes in place of copying: the anonymous file is lengthened and mapped twice again
/// (bytes [0, old size) keep their contents at the same offsets). Returns 0 on success, -1 when refused, leaving
/// the region as it was.
int fr_mirror_grow(fr_mirror *mirror, size_t size);

/// Unmaps the region and closes its file.
void fr_mirror_destroy(fr_mirror *mirror);


#endif
