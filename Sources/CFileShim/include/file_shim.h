// File operations Swift's Glibc module does not expose (renameat2) and the async-signal-safe cleanup of
// temporary output files: a signal handler may only call a few functions, so the registry of live temporaries
// lives here, in fixed slots a handler can walk without locks or allocation.
#ifndef FR_FILE_SHIM_H
#define FR_FILE_SHIM_H
#include <stddef.h>

/// Moves `from` to `to` only if `to` does not exist, in one step (renameat2 RENAME_NOREPLACE, or link + unlink on
/// file systems without it). 0 on success, else an errno value (EEXIST when `to` exists).
int fr_rename_noreplace(const char *from, const char *to);

/// Creates a temporary file from `template_path` (mkostemp, O_CLOEXEC: child processes must not inherit, and so
/// keep locked, our temporaries) and registers it for removal, as one step a fatal signal cannot split: the calling
/// thread blocks SIGTERM, SIGHUP and SIGINT meanwhile, and a handler running on another thread waits for the
/// creation to finish. Returns the descriptor (or -1 with errno) and puts the slot (see fr_temp_register) in `slot`.
int fr_temp_create(char *template_path, int *slot);

/// An anonymous in-memory file (memfd_create), for renders to and from bytes; -1 with errno on failure.
int fr_memory_file(const char *name);

/// Remembers a temporary file to remove on a fatal signal or at exit. Returns a slot (>= 0), or -1 when every
/// slot is taken (the file is then only removed by its owner).
int fr_temp_register(const char *path);
/// Forgets a slot (after the file was published or removed).
void fr_temp_unregister(int slot);
/// Unlinks every registered temporary file (async-signal-safe).
void fr_temp_unlink_all(void);
/// How many temporary files are registered now.
int fr_temp_count(void);

/// Installs handlers that unlink the registered temporaries and then die of the same signal, for SIGTERM and
/// SIGHUP, and for SIGINT when `include_interrupt` is non-zero; also unlinks them at exit(). Idempotent.
void fr_install_cleanup_handlers(int include_interrupt);
#endif
