/// Which engine renders.
public enum Backend: String, CaseIterable, Sendable {
    /// Vulkan when a usable device exists, otherwise the CPU (with a warning saying why).
    case auto
    case cpu
    case vulkan
}
