import FilterCore

/// Why a render failed, grouped as the command line's exit codes are.
public enum RenderError: Error, CustomStringConvertible {
    /// The recipe or the request is wrong (exit code 2).
    case recipe(RecipeError)
    /// An input image could not be read (exit code 3).
    case input(String)
    /// Rendering or writing the output failed (exit code 4).
    case render(String)

    public var description: String {
        switch self {
        case .recipe(let e): return e.description
        case .input(let m), .render(let m): return m
        }
    }
}
