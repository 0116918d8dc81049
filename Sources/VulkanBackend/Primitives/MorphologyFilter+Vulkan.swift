import FilterCore

extension Primitives.MorphologyFilter: VulkanPrimitive {
    var holdsTemporary: Bool { MorphologyKernelSource.passes(morphology).count > 1 }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let source = MorphologyKernelSource.source(morphology.operation)
        let passes = MorphologyKernelSource.passes(morphology)
        if passes.count == 1 {
            encoder.push.set(MorphologyParameters(rows: passes[0].count))
            encoder.add(.morphology, source: source, params: passes[0], perPixel: Double(morphology.count))
            return
        }
        // The row pass covers the rows the column pass reads, in a buffer shaped like the input's band.
        let temporary = try encoder.temporary()
        var first = encoder.firstPassPush
        first.set(MorphologyParameters(rows: 1))
        encoder.add(.morphology, source: source, params: passes[0], into: temporary, over: encoder.inputRows, push: first,
                    perPixel: Double(2 * morphology.radius + 1))
        encoder.push.set(MorphologyParameters(rows: passes[1].count))
        encoder.add(.morphology, source: source, reading: [CommandBatch.Binding(buffer: temporary)], params: passes[1],
                    perPixel: Double(2 * morphology.radius + 1))
        encoder.give(temporary)
    }
}
