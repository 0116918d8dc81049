import FilterRecipe
import Foundation

/// Presets parsed and validated once, and again only when their file changes: a request looks its preset up by
/// path and the file's validator (size and modification time, already read for the ETag), so an edited preset is
/// served from the next request on without a restart, and an unchanged one costs no JSON parsing. At most
/// `capacity` presets are held (the folder's, normally); beyond that the cache starts again.
final class PresetCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (validator: String, recipe: Recipe)] = [:]
    private let capacity: Int
    /// Parses made so far (for tests: a second request for an unchanged preset makes none).
    private(set) var parses = 0

    init(capacity: Int = 1024) { self.capacity = capacity }

    /// The preset at `path` whose file has `validator`, parsed by `load` when not held or changed since.
    func recipe(at path: String, validator: String, load: () throws -> Recipe) throws -> Recipe {
        lock.lock()
        if let held = entries[path], held.validator == validator {
            lock.unlock()
            return held.recipe
        }
        lock.unlock()
        // Parsed outside the lock: a slow or large preset does not hold up other requests' lookups.
        let recipe = try load()
        lock.lock()
        defer { lock.unlock() }
        parses += 1
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[path] = (validator, recipe)
        return recipe
    }
}
