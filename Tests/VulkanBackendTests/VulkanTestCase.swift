import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// Skips when no Vulkan device can be opened. CI installs lavapipe, so there the Vulkan tests always run.
class VulkanTestCase: XCTestCase {
    override func tearDown() {
        assertNoVulkanValidationMessages()
        super.tearDown()
    }

    override func setUpWithError() throws {
        do { _ = try VulkanContext.shared() } catch {
            throw XCTSkip("no Vulkan device: \(error)")
        }
    }
}
