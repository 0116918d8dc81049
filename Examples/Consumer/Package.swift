// swift-tools-version:6.1
// A package that uses FilterRecipe as an app would, by path: the README's first listing, built by scripts/test.sh so
// a new user's copy of it is known to build. It depends on the library alone, so it turns the trait "Server" off and
// resolves none of the service's packages (scripts/test.sh checks that).
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "FilterRecipe", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "FilterRecipe", package: "FilterRecipe")]),
    ]
)
