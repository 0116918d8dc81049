import FilterCore

/// A primitive's CPU kernel: the stages that compute its node's rows. Each descriptor of FilterCore/Primitives
/// conforms in a file of this folder named after it, so a primitive's row rule and cost (FilterCore) and its two
/// kernels (here and VulkanBackend/Primitives) are found by one name; `CPURenderer` reaches the factory through
/// `Primitive.descriptor` and holds no switch over the primitives.
protocol CPUPrimitive: PrimitiveDescriptor {
    /// The stage (or the last of a chain of stages) that yields the node's rows, reading `build.inputs`.
    func stage(_ build: CPUNodeBuild) throws -> Stage
}

/// What a primitive's CPU factory is given: the node as the plan chose its representation, the stages of its
/// inputs (already converted to working values where the node reads working values) and the render's context.
struct CPUNodeBuild {
    let node: Plan.Node
    let inputs: [Stage]
    let inputNodes: [Plan.Node]
    /// The first input has no transparent pixel anywhere (the plan's alpha analysis).
    let opaqueInput: Bool
    let plan: Plan
    let sources: [String: ImageRowSource]
    let conversions: [String: ConvertingRowSource]
    let stats: RenderStats

    var space: WorkingSpace { plan.workingSpace }

    /// `stage` reading the node's inputs.
    func connected(_ stage: Stage) -> Stage { connected(stage, to: inputs) }

    /// `stage` reading `inputs` (the second of two stages reads the first).
    func connected(_ stage: Stage, to inputs: [Stage]) -> Stage {
        for input in inputs { stage.connect(input) }
        return stage
    }

    /// The conversion of the first input's stored samples for a node that reads them itself, else nil.
    var sampleReader: PixelConverter? {
        guard node.readsSamples, case .samples(let format, _) = inputNodes[0].representation else { return nil }
        return PixelConverter(format: format, space: space)
    }
}
