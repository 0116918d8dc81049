// The DocC articles' Swift listings (Sources/FilterRecipe/FilterRecipe.docc) that the README does not already
// have, compiled by every build; ReadmeListingTests checks each article listing appears in this target.
import FilterRecipe
import Foundation

func doccListings(url: URL, thumb: Image) throws {
    let report = try thumb.render(to: "thumb-auto.png", renderer: Renderer(backend: .auto))
    print(report.backend, report.warnings)

    let photo = Image(input: "main")
    let glow = try photo.gaussianBlur(sigma: 6).blend(backdrop: photo, mode: .screen, opacity: 0.45)
    let cutout = try photo.setAlpha(mask: Image(input: "mask"))
    try glow.render(to: "glow.png", inputs: ["main": "samples/coffee_600x400_rgb8.png"])
    print(cutout.recipe.inputs)   // ["main", "mask"]

    let recipe = glow.recipe
    let json = try recipe.jsonData()
    let again = try Recipe(json: json)
    assert(again == recipe)
    do {
        _ = try Image(input: "main").applying(.gaussianBlur, ["sigam": 3])
    } catch let error as RecipeError {
        print(error)   // gaussianBlur(sigma:) in step 0, parameter sigam: gaussianBlur has no parameter "sigam" (did you mean "sigma"?)
    }

    do { _ = try Image(input: "main").applying(.blend, ["mode": "scren"], with: [Image(input: "other")]) }
    catch let error as RecipeError {
        for issue in error.issues { print(issue.path, issue.message) }
    }
}
