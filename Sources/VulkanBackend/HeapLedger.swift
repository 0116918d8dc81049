/// Bytes allocated in each memory heap, against each heap's budget. Device-local heaps share the device budget
/// (VK_EXT_memory_budget's, the heap's size, or `FILTERRUN_VULKAN_MEMORY_LIMIT`); other heaps — system memory a
/// discrete GPU reaches over the bus, where its staging and readback buffers live — have their own size as budget,
/// so staging never spends the device's memory. On unified memory (one device-local heap) everything counts there.
package struct HeapLedger: Sendable {
    package struct Heap: Sendable {
        package var size: Int
        package var deviceLocal: Bool
        package init(size: Int, deviceLocal: Bool) {
            self.size = size
            self.deviceLocal = deviceLocal
        }
    }

    package let heaps: [Heap]
    package let deviceBudget: Int
    package private(set) var allocated: [Int]

    package init(heaps: [Heap], deviceBudget: Int) {
        self.heaps = heaps
        self.deviceBudget = deviceBudget
        allocated = [Int](repeating: 0, count: heaps.count)
    }

    /// Bytes allocated in device-local heaps (what the device budget limits).
    package var deviceBytes: Int { heaps.indices.filter { heaps[$0].deviceLocal }.reduce(0) { $0 + allocated[$1] } }

    /// The device budget not allocated now: what working buffers may still take.
    package var availableDeviceBytes: Int { deviceBudget - deviceBytes }

    /// Whether `bytes` more fit heap `heap`'s budget.
    package func fits(_ bytes: Int, heap: Int) -> Bool {
        heaps[heap].deviceLocal ? deviceBytes + bytes <= deviceBudget : allocated[heap] + bytes <= heaps[heap].size
    }

    package mutating func charge(_ bytes: Int, heap: Int) { allocated[heap] += bytes }
    package mutating func release(_ bytes: Int, heap: Int) { allocated[heap] -= bytes }

    /// What a refusal says: the heap and what it holds.
    package func describe(heap: Int) -> String {
        heaps[heap].deviceLocal ? "\(deviceBytes) of \(deviceBudget) device bytes in use"
            : "\(allocated[heap]) of \(heaps[heap].size) bytes of host heap \(heap) in use"
    }
}
