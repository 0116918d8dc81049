import FilterCore

extension Primitives.Source: VulkanPrimitive {
    /// Unpacks the band's rows into working values: for a source of floats (copied as they are), and for a stored
    /// source the planner did not leave to its readers (`BandSchedule.packed`: the output itself, with nothing
    /// between source and pack).
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let format = encoder.formats[name]!, upload = encoder.uploads[name]!
        let rows = encoder.rows
        let rowBytes = encoder.node.width * format.bytesPerPixel
        if format == .rgba32f {
            // Working values already: copy the band's rows.
            encoder.copy(from: upload, sourceOffset: encoder.run.uploadRows(name, rows).lowerBound * rowBytes,
                         bytes: rows.count * rowBytes)
            return
        }
        let binding = PackedSamples.binding(upload, format: format, width: encoder.node.width,
                                            rows: encoder.run.uploadRows(name, rows),
                                            alignment: encoder.run.context.limits.minStorageBufferOffsetAlignment)
        encoder.push.set(UnpackParameters(channels: format.channels, bytesPerSample: format.bytesPerSample,
                                          linear: encoder.space == .linear,
                                          unit: format.bytesPerSample == 1 ? 1 / 255 : 1 / 65535))
        encoder.push.rows.z = Int32(rows.lowerBound)
        // unpack.comp reads its words itself; the binding is not a packed input to images.glsl.
        encoder.push.rows2.y = Int32(binding.packed!.skip)
        encoder.add(.unpack, reading: [CommandBatch.Binding(buffer: upload, offset: binding.offset, range: binding.range)])
    }
}
