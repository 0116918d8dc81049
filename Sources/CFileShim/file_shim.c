#define _GNU_SOURCE
#include "file_shim.h"
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

int fr_rename_noreplace(const char *from, const char *to) {
#ifdef SYS_renameat2
    if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
#endif
    // Without renameat2: link() also fails with EEXIST rather than replacing.
    if (link(from, to) != 0) return errno;
    unlink(from);
    return 0;
}

int fr_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

enum { SLOTS = 256, PATH_BYTES = 4096 };
enum { FREE = 0, FILLING = 1, LIVE = 2 };
static _Atomic int slot_state[SLOTS];
static char slot_path[SLOTS][PATH_BYTES];

int fr_temp_register(const char *path) {
    if (strlen(path) >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&slot_state[i], &expected, FILLING)) {
            strcpy(slot_path[i], path);
            atomic_store(&slot_state[i], LIVE);
            return i;
        }
    }
    return -1;
}

void fr_temp_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&slot_state[slot], FREE);
}

void fr_temp_unlink_all(void) {
    for (int i = 0; i < SLOTS; i++) {
        int expected = LIVE;
        // Claim the slot so a concurrent unregister + reuse cannot change the path under us.
        if (atomic_compare_exchange_strong(&slot_state[i], &expected, FILLING)) {
            unlink(slot_path[i]);
            atomic_store(&slot_state[i], FREE);
        }
    }
}

int fr_temp_count(void) {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) n += atomic_load(&slot_state[i]) == LIVE;
    return n;
}

/// Creations between mkostemp and registration, and whether a fatal signal is being handled (Dekker-style: a
/// creator that sees `terminating` backs out; a handler that sees `creating` waits).
static _Atomic int creating = 0;
static _Atomic int terminating = 0;

int fr_temp_create(char *template_path, int *slot) {
    sigset_t fatal, previous;
    sigemptyset(&fatal);
    sigaddset(&fatal, SIGTERM);
    sigaddset(&fatal, SIGHUP);
    sigaddset(&fatal, SIGINT);
    pthread_sigmask(SIG_BLOCK, &fatal, &previous);
    atomic_fetch_add(&creating, 1);
    int fd = -1, error = EINTR;
    *slot = -1;
    if (!atomic_load(&terminating)) {
        fd = mkostemp(template_path, O_CLOEXEC);
        error = errno;
        if (fd >= 0) *slot = fr_temp_register(template_path);
    }
    atomic_fetch_sub(&creating, 1);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = error;
    return fd;
}

static void on_fatal_signal(int sig) {
    atomic_store(&terminating, 1);
    // Never this thread (it blocks the signals while creating): another one is between create and register.
    while (atomic_load(&creating) > 0) {}
    fr_temp_unlink_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void at_exit(void) { fr_temp_unlink_all(); }

void fr_install_cleanup_handlers(int include_interrupt) {
    static atomic_flag registered = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&registered)) atexit(at_exit);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    if (include_interrupt) sigaction(SIGINT, &action, NULL);
}
