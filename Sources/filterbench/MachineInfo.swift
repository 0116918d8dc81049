import FilterCore
import FilterRecipe
import Foundation
import VulkanBackend

/// What the figures were measured on: printed with every table and stored in the JSON and HTML reports.
struct MachineInfo: Codable {
    var cpu: String
    var cores: Int
    var vulkanDevice: String
    var build: String
    var commit: String
    var date: String

    static func current() -> MachineInfo {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let device = (try? VulkanContext.shared().description) ?? "none"
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return MachineInfo(cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount, vulkanDevice: device,
                           build: build, commit: gitCommit(), date: ISO8601DateFormatter().string(from: Date()))
    }

    var summary: String {
        "\(date) · \(cpu), \(cores) cores · Vulkan: \(vulkanDevice) · \(build) build · commit \(commit)"
    }

    private static func gitCommit() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "--short", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }
}
