// Test builds only: `swift build -c release` builds every target, and XCTest exists only in test builds.
#if canImport(XCTest)
import VulkanBackend
import XCTest

/// Fails the current test on any Khronos validation message its Vulkan work caused (the layer runs when
/// FILTERRUN_VULKAN_VALIDATION is set, as scripts/test.sh does). Test classes that render on Vulkan call it from
/// `tearDown`.
package func assertNoVulkanValidationMessages(file: StaticString = #filePath, line: UInt = #line) {
    for message in VulkanValidation.drain() { XCTFail(message, file: file, line: line) }
}
#endif
