import Foundation
import VulkanBackend

/// Remembers what `auto` found when it last opened Vulkan, so that machines whose only Vulkan driver is a software
/// one (most servers and CI machines, where Mesa's lavapipe comes with the graphics stack), or that have none, do not
/// load it on every run, nor say so every time: opening it costs ~50 ms and ~60 MiB of resident memory, three times a thumbnail render's footprint. The
/// record is keyed by the installed Vulkan driver manifests (paths, sizes, modification times) and the environment
/// variables that choose drivers, so installing or updating a driver makes `auto` look again.
enum AutoBackendProbe {
    static var cacheFile: URL { ShaderCompiler.cacheDirectory.deletingLastPathComponent().appendingPathComponent("auto-backend") }

    /// What a probe found: a hardware device (`auto` renders there), only a software one, or no Vulkan at all.
    enum Finding: Equatable {
        case hardware
        case software(String)
        case unavailable(String)
    }

    /// What `auto` found last time, if nothing about the installed drivers has changed since.
    static func cachedFinding() -> Finding? {
        guard let text = try? String(contentsOf: cacheFile, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 2, lines[0] == fingerprint() else { return nil }
        if lines[1] == "hardware" { return .hardware }
        if lines[1].hasPrefix("software ") { return .software(String(lines[1].dropFirst("software ".count))) }
        if lines[1].hasPrefix("unavailable ") { return .unavailable(String(lines[1].dropFirst("unavailable ".count))) }
        return nil
    }

    /// Records what a probe found (written atomically; a failure to write only means probing again next time).
    static func record(_ finding: Finding) {
        let line: String
        switch finding {
        case .hardware: line = "hardware"
        case .software(let device): line = "software \(device)"
        case .unavailable(let reason): line = "unavailable " + reason.replacingOccurrences(of: "\n", with: " ")
        }
        let text = fingerprint() + "\n" + line
        let directory = cacheFile.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? text.write(to: cacheFile, atomically: true, encoding: .utf8)
    }

    /// The Vulkan loader's driver manifests and driver-selecting environment, as one line.
    static func fingerprint() -> String {
        let environment = ProcessInfo.processInfo.environment
        var parts = ["VK_ICD_FILENAMES", "VK_DRIVER_FILES", "VK_ADD_DRIVER_FILES", "FILTERRUN_VULKAN_LOADER"]
            .map { "\($0)=\(environment[$0] ?? "")" }
        var directories = ["/etc/vulkan/icd.d", "/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d",
                           "/usr/local/etc/vulkan/icd.d"]
        if let home = environment["XDG_DATA_HOME"] ?? environment["HOME"].map({ $0 + "/.local/share" }) {
            directories.append(home + "/vulkan/icd.d")
        }
        for directory in directories {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() {
                let path = directory + "/" + name
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                let size = attributes?[.size] as? Int ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                parts.append("\(path):\(size):\(Int(modified))")
            }
        }
        return parts.joined(separator: " ")
    }
}
