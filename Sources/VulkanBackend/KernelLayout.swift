import CVulkan

/// The one descriptor-set layout and pipeline layout every kernel uses: binding 0 the output, 1–3 inputs,
/// 4 the parameter block, 5 the conversion tables (all storage buffers), and `PushConstants`.
final class KernelLayout {
    /// The slots, in binding order: their GLSL names (`BINDING_OUTPUT`…) are generated from these
    /// (`KernelConstants.glsl`), so the shaders and `CommandBatch.dispatch` agree by construction.
    enum Slot: String, CaseIterable { case output, input0, input1, input2, params, tables }
    static let bindings = Slot.allCases.count
    let setLayout: VkDescriptorSetLayout
    let pipelineLayout: VkPipelineLayout

    init(device: VkDevice) throws {
        var bindings = (0..<UInt32(Self.bindings)).map { index -> VkDescriptorSetLayoutBinding in
            var binding = VkDescriptorSetLayoutBinding()
            binding.binding = index
            binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            binding.descriptorCount = 1
            binding.stageFlags = UInt32(VK_SHADER_STAGE_COMPUTE_BIT.rawValue)
            return binding
        }
        var setInfo = VkDescriptorSetLayoutCreateInfo()
        setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
        setInfo.bindingCount = UInt32(bindings.count)
        var madeSet: VkDescriptorSetLayout?
        try bindings.withUnsafeMutableBufferPointer { pointer in
            setInfo.pBindings = UnsafePointer(pointer.baseAddress)
            try check(vkCreateDescriptorSetLayout(device, &setInfo, nil, &madeSet), "vkCreateDescriptorSetLayout")
        }
        setLayout = madeSet!
        var range = VkPushConstantRange()
        range.stageFlags = UInt32(VK_SHADER_STAGE_COMPUTE_BIT.rawValue)
        range.size = UInt32(MemoryLayout<PushConstants>.size)
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.setLayoutCount = 1
        layoutInfo.pushConstantRangeCount = 1
        var madeLayout: VkPipelineLayout?
        var setLayoutHandle: VkDescriptorSetLayout? = setLayout
        try withUnsafePointer(to: &setLayoutHandle) { setPointer in
            try withUnsafePointer(to: &range) { rangePointer in
                layoutInfo.pSetLayouts = setPointer
                layoutInfo.pPushConstantRanges = rangePointer
                try check(vkCreatePipelineLayout(device, &layoutInfo, nil, &madeLayout), "vkCreatePipelineLayout")
            }
        }
        pipelineLayout = madeLayout!
    }
}

/// Mirrors `Push` in Shaders/include/common.glsl (128 bytes, the least every device allows).
struct PushConstants {
    /// Output width, height; input 0 width, height (whole images).
    var size = SIMD4<Int32>()
    /// Input 1 width, height; input 2 width, height.
    var size2 = SIMD4<Int32>()
    var ints = SIMD4<Int32>()
    /// First output row of the band, output rows in the band, first row held of input 0, of input 1.
    var rows = SIMD4<Int32>()
    /// First row held of input 2; byte offset of packed samples in their binding.
    var rows2 = SIMD4<Int32>()
    var f0 = SIMD4<Float>()
    var f1 = SIMD4<Float>()
    var f2 = SIMD4<Float>()
}

extension KernelLayout.Slot {
    /// The slot's binding number.
    var index: Int { Self.allCases.firstIndex(of: self)! }
}
