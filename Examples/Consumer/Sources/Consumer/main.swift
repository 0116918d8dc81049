// The README's first Swift listing, as a new user copies it into a fresh package.
import FilterRecipe
import Foundation

let url = URL(fileURLWithPath: "samples/coffee_600x400_rgb8.png")
let thumb = try Image(contentsOf: url).resize(width: 400).unsharpMask(sigma: 0.8, amount: 0.6)
try thumb.render(to: "thumb.jpg", renderer: Renderer(backend: .cpu))
let json = try thumb.recipe.jsonData()   // and Recipe(json:) back, identically
