import FilterCore

extension Primitives.SeparableConvolution: VulkanPrimitive {
    var holdsTemporary: Bool { true }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        // The horizontal pass covers the rows the vertical pass reads, in a buffer shaped like the input's band.
        let inputRows = encoder.inputRows
        let temporary = try encoder.temporary()
        var first = encoder.firstPassPush
        first.set(SeparableParameters(taps: horizontal.count))
        // Tiled: 256-pixel groups along a row, each stepping over 16 rows (the group count a 16×16 shape gives).
        let tiles = encoder.tiling.separable(taps: max(horizontal.count, vertical.count))
        encoder.add(tiles ? .separableHorizontalTiled : .separableHorizontal, params: horizontal, into: temporary,
                    over: inputRows, push: first,
                    groups: tiles ? ((encoder.node.width + KernelConstants.rowTile - 1) / KernelConstants.rowTile,
                                    (inputRows.count + KernelConstants.squareTile - 1) / KernelConstants.squareTile) : nil,
                    perPixel: Double(horizontal.count))
        encoder.push.set(SeparableParameters(taps: vertical.count))
        encoder.add(tiles ? .separableVerticalTiled : .separableVertical, reading: [CommandBatch.Binding(buffer: temporary)],
                    params: vertical, groups: tiles ? encoder.squareTiles : nil, perPixel: Double(vertical.count))
        encoder.give(temporary)
    }
}
