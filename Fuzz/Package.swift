// swift-tools-version:6.0
// libFuzzer targets for the recipe decoder and the PNG, JPEG, WebP (still and animated), TIFF, HEIF, AVIF sequence, GIF and JPEG XL decoders. Built and run by scripts/fuzz.sh (needs
// -sanitize=fuzzer), kept out of the main package so ordinary builds never need libFuzzer.
import PackageDescription

let package = Package(
    name: "FilterRecipeFuzz",
    dependencies: [.package(name: "FilterRecipe", path: "..")],
    targets: [
        // Each main hands its test function to libFuzzer's driver (LLVMFuzzerRunDriver).
        .target(name: "FuzzDriver"),
        // The render every image target runs its bytes through.
        .target(name: "FuzzRender", dependencies: [.product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzRecipe", dependencies: ["FuzzDriver", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzDriver", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzJPEG", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzWebP", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzJXL", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzHEIF", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzTIFF", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzAVIFSequence", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzJXLAnimation", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzWebPAnimation", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
        .executableTarget(name: "FuzzDeclaredSizes", dependencies: ["FuzzDriver", "FuzzRender", .product(name: "FilterRecipe", package: "FilterRecipe")]),
    ],
    swiftLanguageModes: [.v5]
)
