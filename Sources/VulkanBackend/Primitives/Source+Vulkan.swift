import FilterCore

extension Primitives.Source: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let format = encoder.formats[name]!, upload = encoder.uploads[name]!
        let rows = encoder.rows
        let rowBytes = encoder.node.width * format.bytesPerPixel
        if format == .rgba32f {
            // Working values already: copy the band's rows.
            encoder.copy(from: upload, sourceOffset: rows.lowerBound * rowBytes, bytes: rows.count * rowBytes)
            return
        }
        let start = rows.lowerBound * rowBytes
        let alignment = encoder.run.context.limits.minStorageBufferOffsetAlignment
        let offset = start / alignment * alignment
        let range = min(upload.byteCount - offset, VulkanRun.wordAligned(start - offset + rows.count * rowBytes))
        encoder.push.set(UnpackParameters(channels: format.channels, bytesPerSample: format.bytesPerSample,
                                          linear: encoder.space == .linear,
                                          unit: format.bytesPerSample == 1 ? 1 / 255 : 1 / 65535))
        encoder.push.rows.z = Int32(rows.lowerBound)
        encoder.push.rows2.y = Int32(start - offset)
        encoder.add(.unpack, reading: [CommandBatch.Binding(buffer: upload, offset: offset, range: range)])
    }
}
