// The allocator's settings Swift's Glibc module does not expose (mallopt lives in malloc.h, outside it).
#ifndef FR_PROCESS_MEMORY_H
#define FR_PROCESS_MEMORY_H
#include <stddef.h>

/// Tells glibc's malloc to serve blocks under `mapped_above` bytes from its heaps rather than from a fresh mapping
/// each, and to keep up to `kept_free` bytes freed at the top of a heap rather than hand them back to the kernel.
/// 1 when both settings were taken, 0 when either was refused (another C library: nothing changes).
int fr_keep_freed_memory(size_t mapped_above, size_t kept_free);

#endif
