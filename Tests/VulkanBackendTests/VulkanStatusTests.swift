import VulkanBackend
import XCTest

/// The Vulkan compute backend is not built yet; what exists is device discovery for `--explain`.
final class VulkanStatusTests: XCTestCase {
    func testLoaderListsADeviceWhenOneIsInstalled() throws {
        guard let names = VulkanStatus.deviceNames() else {
            throw XCTSkip("no Vulkan loader or ICD on this machine")
        }
        // CI installs mesa-vulkan-drivers, so lavapipe (llvmpipe) is always there.
        XCTAssertFalse(names.isEmpty)
        XCTAssertTrue(names.allSatisfy { !$0.isEmpty })
    }
}
