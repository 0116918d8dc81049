// The README's Swift listings, compiled by every build (swift build builds this target; it is not run).
// ReadmeListingTests checks that each listing in README.md appears here line for line.
import FilterRecipe
import Foundation

func readmeListings() async throws {
    let url = URL(fileURLWithPath: "samples/coffee_600x400_rgb8.png")
    let thumb = try Image(contentsOf: url).resize(width: 400).unsharpMask(sigma: 0.8, amount: 0.6)
    try thumb.render(to: "thumb.jpg", renderer: Renderer(backend: .cpu))
    let json = try thumb.recipe.jsonData()   // and Recipe(json:) back, identically

    var options = Renderer.Options()
    options.jpeg.quality = 85
    options.replaceExisting = true   // filterrun's --force
    options.maxPixels = 50_000_000
    let written = try thumb.render(to: "thumb-85.jpg", renderer: Renderer(backend: .auto, options: options))
    print(written)   // cpu, 400×267 rgb8, 0.021 s (decode …, filter …, encode …), peak 31 MiB

    do {
        try Image(contentsOf: url).gaussianBlur(sigma: 3).render(to: "blurred.png")
    } catch RenderError.input(let failure) where failure.kind == .corrupt {
        print("damaged file: \(failure)")
    } catch RenderError.output(let failure) where failure.kind == .exists {
        print("already rendered: \(failure.path)")
    } catch let error as RenderError {
        print(error)   // names the file or JSON path and the cause
    }

    let recipe = try Image(input: "main").resize(width: 1024).vignette(intensity: 0.4).recipe
    let jpeg = try Data(contentsOf: url)
    let (png, report) = try Renderer().render(recipe, encoded: ["main": jpeg], as: .png)
    print(png.count, report.width, report.height)

    let pixels = try PixelBuffer(width: 2, height: 1, format: .rgb8, copying: Data([255, 0, 0, 0, 0, 255]))
    let inverted = try Renderer(backend: .cpu).render(try Image(input: "main").invert().recipe, images: ["main": pixels])
    print(try inverted.packedData())

    let task = Task {
        try await Renderer().render(recipe, inputs: ["main": url.path], output: "big.png") { done, total in
            print("\(done) of \(total) rows")
        }
    }
    task.cancel()   // throws RenderError.cancelled; no file is left

    let framed = try Image(contentsOf: url).pad(top: 24, right: 24, bottom: 24, left: 24, color: [1, 1, 1, 0.75])
        .monochrome(color: "#d8b98a", intensity: 0.6)
    try framed.render(to: "framed.png")

    let session = try PreviewSession(inputs: ["main": url.path], previewWidth: 1920, cacheBudget: 512 << 20)
    for intensity in stride(from: 0.2, through: 0.8, by: 0.1) {
        let look = try Image(input: "main").gaussianBlur(sigma: 2).colorControls(saturation: 1.1).vignette(intensity: intensity)
        let frame = try session.render(look)   // only the vignette runs after the first frame
        print(frame.width, session.statistics.nodesFromCache)
    }
}
