/// The release of this library and its tools (`filterrun --version`, `filterbench --version`).
public enum FilterRecipeVersion {
    /// Semantic version; raised with every release that changes what callers see.
    public static let current = "0.12.0"
}
