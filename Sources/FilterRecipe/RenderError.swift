import FilterCore

/// Why a render failed. `exitCode` is the command line's grouping: 2 the request (recipe, output choice),
/// 3 an input image, 4 rendering or writing.
public enum RenderError: Error, CustomStringConvertible {
    /// The recipe is wrong.
    case recipe(RecipeError)
    /// An input image could not be read.
    case input(String)
    /// The output could not be created, written or published (it exists, is not a regular file, disk full…).
    case output(OutputError)
    /// Rendering failed.
    case render(String)

    public var description: String {
        switch self {
        case .recipe(let e): return e.description
        case .output(let e): return e.description
        case .input(let m), .render(let m): return m
        }
    }

    /// 2 for a wrong request (recipe, an output that exists or is an input or not a regular file), 3 for an input
    /// image, 4 for a render or write failure.
    public var exitCode: Int32 {
        switch self {
        case .recipe: return 2
        case .output(let e):
            switch e.kind {
            case .exists, .isInput, .notRegularFile, .unknownFormat: return 2
            case .notWritable, .diskFull, .io: return 4
            }
        case .input: return 3
        case .render: return 4
        }
    }
}
