import CFileShim
import Foundation

/// A render's destination. Rows go to a temporary file beside it (`.NAME.filterrun-XXXXXX`, locked while open and
/// registered for removal on SIGTERM, SIGHUP, SIGINT and exit); `publish()` moves it into place in one step —
/// without `replace`, only if nothing exists there by then (so a file that appears during the render is kept);
/// with `replace`, only over a regular file, keeping that file's mode and, where permitted, its owner. A symbolic
/// link as destination is followed: its target is replaced and the link stays. Anything not published is removed.
package final class OutputFile: @unchecked Sendable {  // mutable state is guarded by `lock`
    /// What every temporary file's name contains, for sweeps and documentation.
    package static let temporaryMarker = ".filterrun-"

    /// The path as given.
    package let path: String
    /// The file that will be created or replaced (a symbolic link's target).
    package let destination: String
    package let temporaryPath: String
    package let replace: Bool

    /// Held in an anonymous in-memory file, never on disk (`contents()` reads it).
    package let inMemory: Bool

    private let lock = NSLock()
    private var descriptor: Int32
    private var slot: Int32
    private var done = false
    private var replacedMode: mode_t?

    /// Checks the destination and creates the temporary file. Throws `.exists` when the destination exists and
    /// `replace` is false, `.notRegularFile` for anything but a regular file (or a link to one).
    package init(path: String, replace: Bool) throws {
        self.path = path
        self.replace = replace
        inMemory = false
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard replace else { throw OutputError(.exists, path: path, "exists (set \(SettingName.replaceExisting) to replace it)") }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard let resolved = realpath(path, nil) else {
                    throw OutputError(.notRegularFile, path: path, "is a symbolic link to a missing file; not followed")
                }
                destination = String(cString: resolved)
                free(resolved)
                guard stat(destination, &info) == 0 else {
                    throw OutputError(.notRegularFile, path: path, "is a symbolic link whose target cannot be read")
                }
            }
            if let kind = Self.nonRegularKind(info.st_mode) {
                throw OutputError(.notRegularFile, path: path, "is \(kind); only regular files are replaced")
            }
            replacedMode = info.st_mode
        }
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        // Keep the name within NAME_MAX (255 bytes) after the prefix and marker.
        var name = url.lastPathComponent
        while name.utf8.count > 200 { name.removeLast() }
        let pattern = Array(url.deletingLastPathComponent()
            .appendingPathComponent(".\(name)\(Self.temporaryMarker)XXXXXX").path.utf8CString)
        var template = pattern
        var registered: Int32 = -1
        var fd: Int32 = -1
        // A held lock tells a sweep (another batch starting on this directory) that the file is in use; it goes with
        // the process, however that ends. Between creating the file and locking it a sweep may take it for stale and
        // remove it: then the name is gone (no links left) and a new file is made — after yielding, so a sweep that
        // keeps winning the race on a loaded machine (8 losses in a row were seen with both cores busy) lets go.
        for attempt in 0..<64 {
            if attempt > 0 { sched_yield() }
            template = pattern
            fd = template.withUnsafeMutableBufferPointer { fr_temp_create($0.baseAddress!, &registered) }
            guard fd >= 0 else { break }
            var status = stat()
            if flock(fd, LOCK_EX) == 0, fstat(fd, &status) == 0, status.st_nlink > 0 { break }
            fr_temp_unregister(registered)
            close(fd)
            fd = -1
            errno = EAGAIN
        }
        guard fd >= 0 else {
            let code = errno
            let directory = url.deletingLastPathComponent().path
            if code == ENOENT { throw OutputError(.notWritable, path: path, "the directory \(directory) does not exist") }
            if code == EACCES || code == EROFS {
                throw OutputError(.notWritable, path: path, "cannot create a file in \(directory): \(String(cString: strerror(code)))")
            }
            throw OutputError.writing(path, errno: code)
        }
        temporaryPath = String(cString: template)
        descriptor = fd
        slot = registered
        if let mode = replacedMode {
            fchmod(fd, mode & 0o7777)
            _ = fchown(fd, info.st_uid, info.st_gid)  // permitted for root or the same owner; otherwise keep ours
        } else {
            fchmod(fd, 0o666 & ~Self.umaskValue)
        }
    }

    /// An output held in memory: encoders write it as they would a file; `contents()` returns the bytes.
    package init(inMemoryNamed name: String) throws {
        path = name
        destination = name
        temporaryPath = ""
        replace = true
        inMemory = true
        slot = -1
        descriptor = fr_memory_file(name)
        guard descriptor >= 0 else { throw OutputError.writing(name, errno: errno) }
    }

    /// The bytes of an in-memory output (after the encoder finished).
    package func contents() throws -> Data {
        try lock.withLock {
            guard inMemory, !done else { throw OutputError(.io, path: path, "not an open in-memory output") }
            let size = Int(lseek(descriptor, 0, SEEK_END))
            var data = Data(count: max(0, size))
            let read = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, 0) }
            guard read == size else { throw OutputError(.io, path: path, "cannot read the in-memory output back") }
            return data
        }
    }

    deinit { abandon() }

    /// A new descriptor for the temporary file, owned by the caller (an encoder writes and closes it).
    package func writerDescriptor() throws -> Int32 {
        let fd = lock.withLock { done ? -1 : dup(descriptor) }
        guard fd >= 0 else { throw OutputError(.io, path: path, "the output was already closed") }
        return fd
    }

    /// Flushes the temporary file to disk and moves it into place.
    package func publish() throws {
        try lock.withLock {
            guard !done else { throw OutputError(.io, path: path, "the output was already closed") }
            if inMemory { return }  // kept open for contents()
            defer { closeLocked() }
            guard fsync(descriptor) == 0 else { throw OutputError.writing(path, errno: errno) }
            if replace {
                var info = stat()
                if lstat(destination, &info) == 0, let kind = Self.nonRegularKind(info.st_mode) {
                    throw OutputError(.notRegularFile, path: path, "became \(kind) while rendering; not replaced")
                }
                guard rename(temporaryPath, destination) == 0 else {
                    throw OutputError.writing(path, errno: errno)
                }
            } else {
                let code = fr_rename_noreplace(temporaryPath, destination)
                if code == EEXIST {
                    throw OutputError(.exists, path: path, "appeared while rendering and was kept (set \(SettingName.replaceExisting) to replace it)")
                }
                guard code == 0 else { throw OutputError.writing(path, errno: code) }
            }
            fr_temp_unregister(slot)
            slot = -1
        }
    }

    /// Removes the temporary file; nothing is published. Safe to call more than once.
    package func abandon() {
        lock.withLock { closeLocked() }
    }

    private func closeLocked() {
        guard !done else { return }
        done = true
        if !inMemory && (slot >= 0 || access(temporaryPath, F_OK) == 0) { unlink(temporaryPath) }
        fr_temp_unregister(slot)
        slot = -1
        close(descriptor)
    }

    private static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    private static let umaskValue: mode_t = {
        let current = umask(0)
        umask(current)
        return current
    }()

    /// Installs the signal and exit handlers that remove registered temporary files (`interrupt`: SIGINT too).
    package static func installCleanupHandlers(interrupt: Bool) {
        fr_install_cleanup_handlers(interrupt ? 1 : 0)
    }

    /// Removes every temporary file this process has open (before an immediate exit).
    package static func removeAllTemporaries() { fr_temp_unlink_all() }

    /// Temporary files this process has open now.
    package static var openTemporaries: Int { Int(fr_temp_count()) }

    /// Removes temporary files left under `directory` by runs that were killed: names with the marker whose lock
    /// no process holds and that were last written before `before`. Returns the paths removed.
    @discardableResult
    package static func sweepStaleTemporaries(under directory: String, recursive: Bool, before: Date) -> [String] {
        let manager = FileManager.default
        let names = (recursive ? manager.subpaths(atPath: directory) : try? manager.contentsOfDirectory(atPath: directory)) ?? []
        var removed = [String]()
        for name in names {
            let file = (name as NSString).lastPathComponent
            guard file.hasPrefix("."), let marker = file.range(of: temporaryMarker, options: .backwards),
                  file[marker.upperBound...].count == 6 else { continue }
            let full = directory + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  Double(info.st_mtim.tv_sec) < before.timeIntervalSince1970 else { continue }
            let fd = open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) == 0, unlink(full) == 0 { removed.append(full) }
        }
        return removed
    }
}
