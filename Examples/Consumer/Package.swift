// swift-tools-version:6.0
// A package that uses FilterRecipe as an app would, by path: the README's first listing, built by scripts/test.sh so
// a new user's copy of it is known to build.
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "FilterRecipe", path: "../..")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "FilterRecipe", package: "FilterRecipe")]),
    ]
)
