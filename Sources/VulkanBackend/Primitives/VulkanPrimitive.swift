import FilterCore

/// A primitive's Vulkan encoding: the kernel invocations (kernel, parameters, temporaries) that compute its node's
/// band. Each descriptor of FilterCore/Primitives conforms in a file of this folder named after it, beside its CPU
/// kernel in CPUBackend/Primitives; `VulkanRun.planBand` reaches it through `Primitive.descriptor` and holds no
/// switch over the primitives.
protocol VulkanPrimitive: PrimitiveDescriptor {
    /// Whether it runs as two passes with a temporary buffer shaped like its input's band between them (the band
    /// schedule counts that buffer). The second pass reads the temporary alone, so the node's result may take the
    /// place of an input it is the last to read.
    var holdsTemporary: Bool { get }
    /// How its kernels read their inputs, which decides where its result may go and how it reads a stored source.
    var inputReads: InputReads { get }
    /// Appends the node's dispatches (or copies) for the band `encoder.rows`.
    func encode(_ encoder: inout VulkanNodeEncoder) throws
}

/// How a primitive's kernels read their inputs.
enum InputReads {
    /// Each invocation reads every input only at the pixel it writes, before writing it (per-pixel steps, blends,
    /// unsharp's combination): its result may overwrite an input of its size it is the last to read, and it reads
    /// a stored source's samples straight from the upload (one conversion a pixel, as unpacking would cost).
    case atItsPixel
    /// Each input pixel is read at most once, though not where it is written (crops, pads, turns, box reductions):
    /// it reads a stored source's samples straight from the upload, but writes a buffer of its own.
    case once
    /// Pixels are read several times (neighbourhoods, resamples, warps): in linear light a stored source is unpacked
    /// into working values first, so each sample goes through the decoding table once; in sRGB working values, where
    /// the conversion is arithmetic, the kernel reads the samples too (`BufferPlan.neighbourhoodsReadSamples`).
    case neighbourhood
}

extension VulkanPrimitive {
    var holdsTemporary: Bool { false }
    var inputReads: InputReads { .neighbourhood }
}

/// One node's band being encoded: its buffers, its push constants (sizes and band rows filled in; the primitive
/// sets its own parameter block) and the means to add dispatches to the run.
struct VulkanNodeEncoder {
    let run: VulkanRun
    let index: Int
    let node: Plan.Node
    /// The node's rows in this band.
    let rows: Range<Int>
    /// The rows of every node this band needs (nil where none).
    let needed: [Range<Int>?]
    /// The buffer the node's band is written to.
    let output: DeviceBuffer
    /// Each input's band buffer, bound after the output (an uploaded source's samples where its readers convert
    /// them: `PackedSamples`).
    let inputs: [CommandBatch.Binding?]
    /// The uploaded sources and their stored formats (read by sources only).
    let uploads: [String: DeviceBuffer]
    let formats: [String: PixelFormat]
    /// The constants every dispatch of the node gets unless it is given its own.
    var push: PushConstants

    var plan: Plan { run.plan }
    var space: WorkingSpace { run.plan.workingSpace }
    var tiling: VulkanRun.Tiling { run.tiling }
    /// Input samples read per output pixel: a dispatch's default cost (worked out once for the node's band).
    let taps: Double
    /// Group counts for tiled kernels of square groups (`KernelConstants.squareTile`), which lay out their own
    /// invocations over the band.
    var squareTiles: (x: Int, y: Int) {
        let side = KernelConstants.squareTile
        return ((node.width + side - 1) / side, (rows.count + side - 1) / side)
    }
    /// The rows of the first input this band reads.
    var inputRows: Range<Int> { needed[node.inputs[0]]! }
    var label: String { "\(node.origin)\u{1F}\(node.op)" }

    /// A buffer shaped like the first input's band, for a two-pass primitive's first pass; `give` it back after
    /// the second pass is added.
    func temporary() throws -> DeviceBuffer { try run.working(node.inputs[0]) }

    func give(_ buffer: DeviceBuffer) { run.give(buffer) }

    /// The push constants for a first pass over the first input's band rows (a two-pass primitive's).
    var firstPassPush: PushConstants {
        var first = push
        first.rows.x = Int32(inputRows.lowerBound)
        first.rows.y = Int32(inputRows.count)
        return first
    }

    /// One dispatch of the node: by default over its band into its buffer, the shape from `VulkanRun.launch`, the
    /// cost its taps a pixel. A two-pass primitive's first pass writes `into` a temporary over the rows it covers
    /// (`over`), and a kernel that lays out its own invocations gives `groups` (keeping the source's shape).
    func add(_ kernel: Kernel, source: String? = nil, reading: [CommandBatch.Binding?]? = nil, params: [Float] = [],
             into target: DeviceBuffer? = nil, over covered: Range<Int>? = nil, push given: PushConstants? = nil,
             groups: (x: Int, y: Int)? = nil, perPixel: Double? = nil) {
        let covered = covered ?? rows
        let launch = VulkanRun.launch(width: node.width, rows: covered.count)
        let reads = reading ?? inputs
        var push = given ?? push
        PackedSamples.offsets(&push, inputs: reads)
        run.steps.append(.dispatch(VulkanRun.Invocation(
            kernel: kernel,
            source: PackedSamples.reading(source ?? ShaderLibrary.source(kernel), inputs: reads, linear: space == .linear),
            bindings: [CommandBatch.Binding(buffer: target ?? output)] + reads, push: push,
            params: params, groups: groups ?? launch.groups, label: label,
            work: Double(node.width * covered.count) * (perPixel ?? taps), shape: groups == nil ? launch.shape : nil)))
    }

    /// A device copy of `bytes` bytes into the node's buffer.
    func copy(from source: DeviceBuffer, sourceOffset: Int, bytes: Int) {
        run.steps.append(.copy(from: source, to: output, sourceOffset: sourceOffset, destinationOffset: 0, bytes: bytes,
                               label: label))
    }
}
