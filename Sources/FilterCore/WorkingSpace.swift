/// The values filters see. `linear`: linear-light RGB with premultiplied alpha (the default, as Core Image does);
/// `srgb`: sRGB-encoded RGB with premultiplied alpha, as most other tools filter.
public enum WorkingSpace: String, CaseIterable, Sendable, Codable {
    case linear
    case srgb
}
