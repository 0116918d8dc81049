import CVulkan

extension VulkanContext {
    /// The compute pipeline of `source` (made once per process and reused), its work-group size specialised to
    /// `shape` where given (constants 0 and 1: `local_size_x_id`, `local_size_y_id`).
    func pipeline(source: String, name: String, shape: (x: Int, y: Int)? = nil) throws -> VkPipeline {
        let key = ShaderCompiler.hash(source + (shape.map { "\n// work groups \($0.x)×\($0.y)" } ?? ""))
        if let existing = lock.withLock({ pipelines[key] }) { return existing }
        var words = try ShaderCompiler.spirv(for: source, name: name)
        var moduleInfo = VkShaderModuleCreateInfo()
        moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
        moduleInfo.codeSize = words.count * 4
        var module: VkShaderModule?
        try words.withUnsafeMutableBufferPointer { pointer in
            moduleInfo.pCode = UnsafePointer(pointer.baseAddress)
            try check(vkCreateShaderModule(device, &moduleInfo, nil, &module), "vkCreateShaderModule(\(name))")
        }
        defer { vkDestroyShaderModule(device, module, nil) }
        var stage = VkPipelineShaderStageCreateInfo()
        stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
        stage.stage = VK_SHADER_STAGE_COMPUTE_BIT
        stage.module = module
        var info = VkComputePipelineCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
        info.layout = kernelLayout.pipelineLayout
        var pipeline: VkPipeline?
        var size = [UInt32(shape?.x ?? 0), UInt32(shape?.y ?? 0)]
        var entries = [VkSpecializationMapEntry(constantID: 0, offset: 0, size: 4),
                       VkSpecializationMapEntry(constantID: 1, offset: 4, size: 4)]
        try size.withUnsafeMutableBytes { data in
            try entries.withUnsafeMutableBufferPointer { map in
                var specialization = VkSpecializationInfo(mapEntryCount: 2, pMapEntries: map.baseAddress,
                                                          dataSize: 8, pData: data.baseAddress)
                try withUnsafePointer(to: &specialization) { specialized in
                    if shape != nil { stage.pSpecializationInfo = specialized }
                    try "main".withCString { entry in
                        stage.pName = entry
                        info.stage = stage
                        try check(vkCreateComputePipelines(device, pipelineCache.handle, 1, &info, nil, &pipeline),
                                  "vkCreateComputePipelines(\(name))")
                    }
                }
            }
        }
        pipelineCache.made()
        return lock.withLock {
            if let raced = pipelines[key] {
                vkDestroyPipeline(device, pipeline, nil)
                return raced
            }
            pipelines[key] = pipeline!
            return pipeline!
        }
    }
}
