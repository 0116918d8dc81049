import FilterServe
import Foundation
import TestSupport

/// The service the router tests run: the repository's recipes as presets, the photo fixtures as sources, `keys`
/// to sign with, then whatever `change` sets.
func testService(keys: [String], _ change: (inout ServeConfiguration) -> Void = { _ in }) throws -> RenderService {
    var settings = ServeConfiguration()
    settings.presets = Fixtures.repository.appendingPathComponent("recipes").path
    settings.sources = Fixtures.path("photos")
    settings.keys = keys
    change(&settings)
    return try RenderService(settings)
}
