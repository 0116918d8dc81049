import Foundation

/// Files shipped with the tests (Tests/Fixtures) and scratch space.
public enum Fixtures {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository root (for recipes/ and samples/).
    public static let repository = root.deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Real photos covering every decoded layout the tests need.
    public static let photos = [
        "photos/chelsea_451x300_rgb8.png",
        "photos/camera_512_gray8.png",
        "photos/emerald_crop_320x240_rgba8.png",
        "photos/kleiber_crop_320x240_rgb16.png",
        "photos/kleiber_crop_320x240_gray16.png",
    ]

    /// A new empty directory, removed by the caller's `defer`.
    public static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filterrecipe-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
