import CVulkan

extension VulkanContext {
    /// The compute pipeline of `source` (made once per process and reused).
    func pipeline(source: String, name: String) throws -> VkPipeline {
        let key = ShaderCompiler.hash(source)
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
        try "main".withCString { entry in
            stage.pName = entry
            info.stage = stage
            try check(vkCreateComputePipelines(device, pipelineCache.handle, 1, &info, nil, &pipeline),
                      "vkCreateComputePipelines(\(name))")
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
