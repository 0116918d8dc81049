import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// The library is safe to use from several threads at once: concurrent renders of different recipes, on both
/// backends, give exactly what the same renders give one at a time. scripts/tsan.sh runs this under the thread
/// sanitizer.
final class ConcurrencyTests: XCTestCase {
    override func tearDown() {
        assertNoVulkanValidationMessages()
        super.tearDown()
    }

    func testConcurrentRendersMatchSequentialOnes() throws {
        let images = try TestImages.small()
        let recipes: [Recipe] = [
            Recipe.chain([(.gaussianBlur, ["sigma": 2]), (.exposure, ["ev": 0.3])]),
            Recipe.chain([(.resize, ["scale": 0.5]), (.unsharpMask, ["amount": 1])]),
            Recipe.chain([(.median, ["radius": 1]), (.rotate, ["degrees": "90"]), (.sepia, [:])]),
            Recipe.chain([(.sobel, [:]), (.curves, ["points": .points([[0, 0], [0.3, 0.6], [1, 1]])])]),
        ]
        var backends: [Backend] = [.cpu]
        if (try? Renderer(backend: .vulkan).resolveBackend()) != nil { backends.append(.vulkan) }
        var cases: [(Recipe, PixelBuffer, Backend)] = []
        for backend in backends { for recipe in recipes { for (_, image) in images { cases.append((recipe, image, backend)) } } }
        let expected = try cases.map { try Renderer(backend: $0.2).render($0.0, images: ["main": $0.1]).samples() }
        let lock = NSLock()
        var found = [[Double]?](repeating: nil, count: cases.count)
        var failures = [String]()
        DispatchQueue.concurrentPerform(iterations: cases.count * 2) { k in
            let i = k % cases.count
            do {
                let samples = try Renderer(backend: cases[i].2).render(cases[i].0, images: ["main": cases[i].1]).samples()
                lock.withLock { found[i] = samples }
            } catch {
                lock.withLock { failures.append("\(error)") }
            }
        }
        XCTAssertEqual(failures, [])
        for i in cases.indices { XCTAssertEqual(found[i], expected[i], "case \(i) on \(cases[i].2)") }
    }
}
