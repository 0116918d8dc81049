#include "process_memory.h"
#include <stdlib.h>  // defines __GLIBC__ (through features.h) where the C library is glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int fr_keep_freed_memory(size_t mapped_above, size_t kept_free) {
#if defined(__GLIBC__)
    // mallopt takes an int; the sizes asked for are tens of MiB.
    if (mapped_above > 0x7fffffff || kept_free > 0x7fffffff) return 0;
    return mallopt(M_MMAP_THRESHOLD, (int)mapped_above) == 1 && mallopt(M_TRIM_THRESHOLD, (int)kept_free) == 1;
#else
    (void)mapped_above; (void)kept_free;
    return 0;
#endif
}
