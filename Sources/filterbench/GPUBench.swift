import FilterCore
import Foundation
import PNGCodec
import VulkanBackend

/// The Vulkan device against its own floors: the device's copy bandwidth and the host↔device transfer bandwidths
/// (timed on the device), then each recipe rendered in memory on the device with its kernel and transfer times set
/// beside those floors. One run on a new GPU yields the fractions its targets are stated in.
enum GPUBench {
    static func run(photo: String, recipes: [String], runs: Int, machine: String) throws {
        guard let bandwidth = try DeviceBandwidth.measure(bytes: 256 << 20, runs: max(runs, 5)) else {
            print("the Vulkan device \((try? VulkanContext.shared().description) ?? "") has no timestamps: nothing to measure")
            return
        }
        let image = try PNGDecoder.decode(path: photo)
        print("GPU floors on \(bandwidth.device); host: \(machine)")
        print(String(format: "device copy %.1f GB/s read + written · host→device %.1f GB/s · device→host %.1f GB/s (%d MiB, median of %d, device timestamps)",
                     bandwidth.deviceCopy / 1e9, bandwidth.upload / 1e9, bandwidth.download / 1e9, bandwidth.bytes >> 20, max(runs, 5)))
        print("recipes on \(URL(fileURLWithPath: photo).lastPathComponent) (\(image.width)×\(image.height)), in memory, median of \(runs) after a warm-up.")
        print("kernel floor: one pass reading and writing the output's working values (32 B a pixel) at the device copy rate;")
        print("transfer floor: the bytes uploaded and downloaded at the measured transfer rates.")
        print("| recipe | kernel s | kernel floor s | kernel share of copy bandwidth | transfer s | transfer floor s | transfer share | uploads / downloads |")
        print("|---|---|---|---|---|---|---|---|")
        for file in recipes {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            do {
                try measure(file: file, name: name, image: image, runs: runs, bandwidth: bandwidth)
            } catch {
                print("| \(name) | not rendered: \(error) |")
            }
        }
    }

    /// One recipe's row; every input the recipe names is given the photo.
    static func measure(file: String, name: String, image: PixelBuffer, runs: Int, bandwidth: DeviceBandwidth) throws {
        let recipe = try Recipe(json: Data(contentsOf: URL(fileURLWithPath: file)))
        let sizes = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, (image.width, image.height)) })
        let sources = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, image) })
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: sizes)).plan
        var kernels = [Double](), transfers = [Double](), counts = TransferLedger.Counts()
        for run in 0...runs {
            // The input's upload is counted in its own ledger, the output's download in the render's.
            let stats = RenderStats(timeDeviceSteps: true), ledger = TransferLedger(), before = image.ledger.snapshot
            _ = try VulkanRenderer.render(plan, sources: sources, format: image.format, stats: stats, ledger: ledger)
            guard run > 0 else { continue }
            kernels.append(stats.filterSeconds)
            transfers.append(stats.transferSeconds)
            let input = image.ledger.snapshot
            counts = ledger.snapshot
            counts.uploads += input.uploads - before.uploads
            counts.bytesUploaded += input.bytesUploaded - before.bytesUploaded
        }
        kernels.sort(); transfers.sort()
        let kernel = kernels[kernels.count / 2], transfer = transfers[transfers.count / 2]
        let output = plan.nodes[plan.output]
        let kernelFloor = Double(output.width * output.height * 16) / bandwidth.deviceCopy
        let transferFloor = Double(counts.bytesUploaded) / bandwidth.upload + Double(counts.bytesDownloaded) / bandwidth.download
        print(String(format: "| %@ | %.4f | %.4f | %.0f %% | %.4f | %.4f | %.0f %% | %d / %d |", name, kernel, kernelFloor,
                     100 * kernelFloor / max(kernel, 1e-9), transfer, transferFloor, 100 * transferFloor / max(transfer, 1e-9),
                     counts.uploads, counts.downloads))
    }
}
