import Foundation

/// Rendered answers kept on disk, bounded in bytes and evicted least recently used, so that a URL asked for again
/// — a CDN's misses after its own eviction, a restart of this server — is read back rather than rendered. Keyed by
/// the ETag, which covers everything a render read (what was signed, the preset's and the source's validators) and
/// the format, so an entry can never answer for other bytes. Each entry is one file named by the key's digest,
/// written beside its final name and renamed into place when complete: a crash leaves at most a temporary, which
/// the next start removes. Entries found at start are indexed by size and modification time (the last use).
final class ResultCache: @unchecked Sendable {
    let folder: URL
    let capacity: Int
    private let lock = NSLock()
    /// Entry file name → (bytes, last use).
    private var entries: [String: (bytes: Int, used: Date)] = [:]
    private var total = 0
    /// Answers read back (for tests and the metric).
    private(set) var hits = 0

    /// The cache in `folder` (made if missing), holding at most `capacity` bytes of entries.
    init(folder: String, capacity: Int) throws {
        guard capacity > 0 else {
            throw ServeError(.internalServerError, "--result-cache-size must be a positive number of bytes, got \(capacity)")
        }
        self.folder = URL(fileURLWithPath: folder, isDirectory: true)
        self.capacity = capacity
        let files = FileManager.default
        do {
            try files.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw ServeError(.internalServerError, "--result-cache \(folder): the folder cannot be made (\(error.localizedDescription))")
        }
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        for url in (try? files.contentsOfDirectory(at: self.folder, includingPropertiesForKeys: keys)) ?? [] {
            let name = url.lastPathComponent
            if name.hasPrefix(".") {  // a temporary a stopped server left
                try? files.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".entry"), let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else { continue }
            let bytes = values.fileSize ?? 0
            entries[name] = (bytes, values.contentModificationDate ?? .distantPast)
            total += bytes
        }
        lock.lock()
        evict()
        lock.unlock()
    }

    /// The file name of `key`'s entry.
    private static func name(_ key: String) -> String {
        Digests.sha256Hex(key) + ".entry"
    }

    /// The answer stored under `key`, marked as used now; nil when there is none (or it cannot be read).
    func data(for key: String) -> Data? {
        let name = Self.name(key)
        lock.lock()
        guard entries[name] != nil else { lock.unlock(); return nil }
        entries[name]!.used = Date()
        lock.unlock()
        let url = folder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else {
            forget(name)
            return nil
        }
        lock.lock()
        hits += 1
        lock.unlock()
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return data
    }

    /// Stores `data` under `key` (an answer larger than the whole cache is not kept), evicting the least recently
    /// used entries beyond the capacity. Failures to write are not the request's: the answer is served anyway.
    func store(_ data: Data, for key: String) {
        guard data.count <= capacity else { return }
        let name = Self.name(key)
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            // rename(2) replaces an older entry of the same name atomically: a reader sees the old or the new file.
            guard rename(temporary.path, final.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        lock.lock()
        defer { lock.unlock() }
        if let old = entries[name] { total -= old.bytes }
        entries[name] = (data.count, Date())
        total += data.count
        evict()
    }

    /// Bytes held now.
    var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    private func forget(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        if let old = entries.removeValue(forKey: name) { total -= old.bytes }
    }

    /// Removes the least recently used entries until the total fits (the lock held).
    private func evict() {
        guard total > capacity else { return }
        for (name, entry) in entries.sorted(by: { $0.value.used < $1.value.used }) {
            guard total > capacity else { break }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            entries.removeValue(forKey: name)
            total -= entry.bytes
        }
    }
}
