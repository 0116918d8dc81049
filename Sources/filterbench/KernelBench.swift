import CPUBackend
import FilterCore
import Foundation
import PNGCodec

/// The filter stages alone, in memory: the photo is decoded once, then each recipe is planned, optimised and run on
/// the CPU from that buffer, and the time its filter stages took (sources and the final packing excluded) is set
/// beside a memory copy of the working values (16 bytes a pixel read and 16 written). No decoder or encoder shares
/// the cores, so the figure is the kernels' own.
enum KernelBench {
    static func run(photo: String, recipes: [String], runs: Int, copyMebibytes: Int?, machine: String) throws {
        let image = try PNGDecoder.decode(path: photo)
        let pixels = image.width * image.height
        let workingBytes = Double(pixels * 16)
        print("filter stages in memory: \(URL(fileURLWithPath: photo).lastPathComponent) (\(image.width)×\(image.height)), \(machine)")
        let copy = MemoryCopy.seconds(mebibytes: copyMebibytes ?? Int((workingBytes / 1_048_576).rounded(.up)), runs: max(runs, 5))
        print(String(format: "memory copy of the working values (%.0f MiB): %.4f s (median of %d)",
                      workingBytes / 1_048_576, copy, max(runs, 5)))
        print("| recipe | filter s (median of \(runs), min–max) | ns/pixel | share of the copy's throughput |")
        print("|---|---|---|---|")
        for file in recipes {
            let recipe = try Recipe(json: Data(contentsOf: URL(fileURLWithPath: file)))
            let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (image.width, image.height)])).plan
            var times = [Double]()
            for run in 0...runs {
                let stats = RenderStats()
                _ = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: image.format,
                                           stats: stats)
                if run > 0 { times.append(stats.filterSeconds) }
            }
            times.sort()
            let median = times[times.count / 2]
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            print(String(format: "| %@ | %.4f (%.4f–%.4f) | %.1f | %.1f %% |", name, median, times.first!, times.last!,
                         median * 1e9 / Double(pixels), 100 * copy / median))
        }
    }
}
