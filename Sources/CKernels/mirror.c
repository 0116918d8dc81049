#define _GNU_SOURCE
#include "mirror.h"
#include <sys/mman.h>
#include <unistd.h>

size_t fr_mirror_page(void) {
    const long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

// Reserves 2·size bytes of address space, then maps the file over both halves.
static unsigned char *map_twice(int fd, size_t size) {
    unsigned char *base = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED
        || mmap(base + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(base, 2 * size);
        return NULL;
    }
    return base;
}

int fr_mirror_create(fr_mirror *mirror, size_t size) {
    const int fd = memfd_create("filterrun-rows", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    unsigned char *base = map_twice(fd, size);
    if (!base) {
        close(fd);
        return -1;
    }
    mirror->base = base;
    mirror->size = size;
    mirror->fd = fd;
    return 0;
}

int fr_mirror_grow(fr_mirror *mirror, size_t size) {
    if (ftruncate(mirror->fd, (off_t)size) != 0) return -1;
    unsigned char *base = map_twice(mirror->fd, size);
    if (!base) {
        // The old mappings still show the first bytes; shorten the file back.
        if (ftruncate(mirror->fd, (off_t)mirror->size) != 0) { /* the longer file serves as well */ }
        return -1;
    }
    munmap(mirror->base, 2 * mirror->size);
    mirror->base = base;
    mirror->size = size;
    return 0;
}

void fr_mirror_destroy(fr_mirror *mirror) {
    if (mirror->base) munmap(mirror->base, 2 * mirror->size);
    if (mirror->fd >= 0) close(mirror->fd);
    mirror->base = NULL;
    mirror->size = 0;
    mirror->fd = -1;
}
