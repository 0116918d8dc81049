import FilterCore

/// Colours written in Swift as a recipe writes them: `[1, 1, 1, 0.75]` or `[0.2, 0.4, 0.6]` (sRGB-encoded, straight
/// alpha, 0...1) and `"#rrggbb"`, `"#rrggbbaa"`, `"white"`, `"black"`, `"transparent"`. A literal that is not a
/// colour (two numbers, `"#12"`) gives NaN components, which the typed method taking it refuses with a
/// `RecipeError` naming the parameter, as a recipe's JSON is refused: a literal never stops the process.
extension RGBA: ExpressibleByArrayLiteral, ExpressibleByStringLiteral {
    public init(arrayLiteral components: Double...) {
        switch components.count {
        case 3: self.init(components[0], components[1], components[2])
        case 4: self.init(components[0], components[1], components[2], components[3])
        default: self.init(.nan, .nan, .nan, .nan)
        }
    }

    public init(stringLiteral text: String) {
        self = RGBA(parsing: text) ?? RGBA(.nan, .nan, .nan, .nan)
    }
}
