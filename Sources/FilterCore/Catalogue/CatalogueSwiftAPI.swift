/// The Swift face of the catalogue: one typed `Image` method per filter, generated from the declarations so the
/// library cannot drift from JSON recipes. `Sources/FilterRecipe/Image+Catalogue.swift` is this text, checked in;
/// a test fails when it is stale (re-record with FILTERRECIPE_RECORD_API=1).
package enum CatalogueSwiftAPI {
    package static func source() -> String {
        var out = """
        // Generated from the filter catalogue by CatalogueSwiftAPI.source(): one method per filter. Do not edit;
        // re-record with `FILTERRECIPE_RECORD_API=1 swift test --filter GeneratedAPITests`.
        import FilterCore

        extension Image {

        """
        for id in FilterID.allCases {
            out += method(id.spec)
        }
        out += choiceTypes()
        out += "}\n"
        return out
    }

    /// Choice parameters without a type of their own in FilterCore get a nested enum.
    static func choiceType(_ spec: FilterSpec, _ param: ParamSpec) -> String {
        switch param.name {
        case "mode": return "BlendMode"
        case "kernel": return "ResampleKernel"
        default: return upper(spec.id.rawValue) + upper(param.name)
        }
    }

    static func choiceTypes() -> String {
        var out = ""
        for spec in FilterID.allCases.map(\.spec) {
            for param in spec.params {
                guard case .choice(let options) = param.kind, !["mode", "kernel"].contains(param.name) else { continue }
                out += "\n    /// \(spec.id.rawValue)'s \(param.name): \(param.summary.lowercased()).\n"
                out += "    public enum \(choiceType(spec, param)): String, CaseIterable, Sendable {\n"
                for option in options { out += "        case \(caseName(option, param: param)) = \"\(option)\"\n" }
                out += "    }\n"
            }
        }
        return out
    }

    static func caseName(_ option: String, param: ParamSpec) -> String {
        option.first!.isNumber ? param.name + option : option
    }

    static func method(_ spec: FilterSpec) -> String {
        var doc = ["\(spec.summary)", "", "Formula: \(spec.formula)"]
        var arguments = [String](), values = [String]()
        let others = spec.isGenerator ? [] : Array(spec.inputs.dropFirst())
        if !others.isEmpty {
            doc.append("")
            doc.append("`self` is the \(spec.inputs[0]).")
        }
        var parameterDocs = [String]()
        for role in others {
            arguments.append("\(role): Image")
            parameterDocs.append("  - \(role): The \(role) image.")
        }
        for param in spec.params {
            let (type, defaultText, value) = swiftType(spec, param)
            // A file has no sensible default: the argument is required.
            arguments.append(defaultText.isEmpty ? "\(param.name): \(type)" : "\(param.name): \(type) = \(defaultText)")
            values.append("\"\(param.name)\": \(value)")
            let byDefault = defaultText.isEmpty ? "" : ", default \(shown(param.defaultValue))"
            parameterDocs.append("  - \(param.name): \(param.summary); \(param.expectation)\(byDefault).")
        }
        if spec.isGenerator {
            doc.append("")
            doc.append("`self` gives the size when width or height is 0.")
        }
        if !parameterDocs.isEmpty { doc += ["", "- Parameters:"] + parameterDocs }
        doc += (parameterDocs.isEmpty ? [""] : []) + ["- Throws: `RecipeError` naming this call when a value is out of its range."]
        var text = doc.map { "    /// \($0)".trimmingTrailingSpaces }.joined(separator: "\n") + "\n"
        let dictionary = values.isEmpty ? "[:]" : "[" + values.joined(separator: ", ") + "]"
        let with = others.isEmpty ? "" : ", with: [" + others.joined(separator: ", ") + "]"
        text += "    public func \(spec.id.rawValue)(\(arguments.joined(separator: ", "))) throws -> Image {\n"
        text += "        try applying(.\(spec.id.rawValue), \(dictionary)\(with))\n"
        text += "    }\n\n"
        return text
    }

    /// The Swift type, default expression and ParamValue expression of a parameter.
    static func swiftType(_ spec: FilterSpec, _ param: ParamSpec) -> (String, String, String) {
        let name = param.name
        switch (param.kind, param.defaultValue) {
        case (.number, .number(let v)): return ("Double", "\(v)", ".number(\(name))")
        case (.integer, .number(let v)): return ("Int", "\(Int(v))", ".number(Double(\(name)))")
        case (.boolean, .boolean(let v)): return ("Bool", "\(v)", ".boolean(\(name))")
        case (.choice, .string(let v)):
            return (choiceType(spec, param), "." + caseName(v, param: param), ".string(\(name).rawValue)")
        case (.numbers, .numbers(let v)): return ("[Double]", "[" + v.map { "\($0)" }.joined(separator: ", ") + "]", ".numbers(\(name))")
        case (.points, .points(let v)):
            return ("[(x: Double, y: Double)]", "[" + v.map { "(\($0[0]), \($0[1]))" }.joined(separator: ", ") + "]",
                    ".points(\(name).map { [$0.x, $0.y] })")
        case (.color, .color(let c)): return ("RGBA", "RGBA(\(c.r), \(c.g), \(c.b), \(c.a))", ".color(\(name))")
        case (.file, .string): return ("String", "", ".string(\(name))")
        case (.text, .string(let v)): return ("String", v.isEmpty ? "" : "\"\(v)\"", ".string(\(name))")
        default: fatalError("the catalogue declares \(spec.id.rawValue).\(name) with a default of another type")
        }
    }

    static func shown(_ value: ParamValue) -> String {
        switch value {
        case .number(let v): return ParamSpec.format(v)
        case .boolean(let v): return "\(v)"
        case .string(let v): return "\"\(v)\""
        case .numbers(let v): return "[" + v.map(ParamSpec.format).joined(separator: ", ") + "]"
        case .points(let v): return "[" + v.map { "(\(ParamSpec.format($0[0])), \(ParamSpec.format($0[1])))" }.joined(separator: ", ") + "]"
        case .color(let c): return "RGBA(\([c.r, c.g, c.b, c.a].map(ParamSpec.format).joined(separator: ", ")))"
        }
    }

    static func upper(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
