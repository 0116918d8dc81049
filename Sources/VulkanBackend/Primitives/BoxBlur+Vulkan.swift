import FilterCore

extension Primitives.BoxBlur: VulkanPrimitive {
    var holdsTemporary: Bool { true }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        // Running sums along segments of 32–256 pixels (about the window's length) in both passes: each
        // invocation reads its segment's first window, then two samples a pixel.
        let inputRows = encoder.inputRows, rows = encoder.rows, width = encoder.node.width
        let temporary = try encoder.temporary()
        let segment = Primitive.boxSegment(radius: radius)
        let perPixel = 2 + Double(2 * radius + 1) / Double(segment)
        var first = encoder.firstPassPush
        first.set(BoxParameters(radius: radius, vertical: false, segment: segment))
        // Invocations per segment: of a row (horizontal), of a column's part of the band (vertical).
        let segments = (width + segment - 1) / segment
        encoder.add(.box, into: temporary, over: inputRows, push: first,
                    groups: ((segments + 15) / 16, (inputRows.count + 15) / 16), perPixel: perPixel)
        encoder.push.set(BoxParameters(radius: radius, vertical: true, segment: segment))
        let bandSegments = (rows.upperBound - 1) / segment - rows.lowerBound / segment + 1
        encoder.add(.box, reading: [CommandBatch.Binding(buffer: temporary)],
                    groups: ((width + 15) / 16, (bandSegments + 15) / 16), perPixel: perPixel)
        encoder.give(temporary)
    }
}
