import Foundation

extension Recipe {
    static let topLevelKeys = ["version", "description", "workingSpace", "fidelity", "steps", "inputs", "nodes", "output"]
    static let structuralKeys = ["op", "id", "input", "inputs", "description"]

    /// Reads, decodes and validates a recipe file; a file that cannot be read is a `RecipeError` saying why.
    public init(contentsOfFile path: String, limits: RecipeLimits = .default) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw RecipeError(path: "", "cannot read the recipe: \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw RecipeError(path: "", "is a directory; give a recipe file (recipes/ holds examples)")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limits.maxBytes {
            throw RecipeError(path: "", "the recipe is \(info.st_size) bytes, more than the limit of \(limits.maxBytes) (\(SettingName.maxRecipeBytes))")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RecipeError(path: "", "cannot read the recipe: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        // Read at most one byte past the limit, so a FIFO or a growing file cannot make us hold more.
        let data: Data
        do { data = try handle.read(upToCount: limits.maxBytes + 1) ?? Data() }
        catch { throw RecipeError(path: "", "cannot read the recipe: \(error.localizedDescription)") }
        try self.init(json: data, limits: limits)
        let folder = (path as NSString).deletingLastPathComponent
        baseDirectory = folder.isEmpty ? "." : folder
    }

    /// Decodes and validates a recipe. Every problem found is reported together, each with its JSON path.
    public init(json data: Data, limits: RecipeLimits = .default) throws {
        guard data.count <= limits.maxBytes else {
            throw RecipeError(path: "", "the recipe is \(data.count) bytes or more, more than the limit of \(limits.maxBytes) (\(SettingName.maxRecipeBytes))")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(data) }
        catch let error as JSONParser.Failure { throw RecipeError(path: error.path, error.message) }
        var decoder = RecipeDecoder(limits: limits)
        let recipe = decoder.decode(root)
        if !decoder.issues.isEmpty { throw RecipeError(decoder.issues) }
        self = recipe!
    }
}

/// Walks the JSON, collecting every issue rather than stopping at the first.
struct RecipeDecoder {
    var issues: [RecipeError.Issue] = []
    var limits = RecipeLimits.default

    mutating func fail(_ path: String, _ message: String) {
        issues.append(RecipeError.Issue(path: path, message: message))
    }

    mutating func decode(_ root: JSONValue) -> Recipe? {
        guard case .object(let top) = root else {
            fail("", "expected a JSON object, found \(root.shown)")
            return nil
        }
        for key in top.keys.sorted() where !Recipe.topLevelKeys.contains(key) {
            fail(key, "unknown key\(NearestName.hint(for: key, in: Recipe.topLevelKeys))")
        }
        switch top["version"] {
        case .number(let v) where v == Double(Recipe.currentVersion): break
        case nil: fail("version", "missing (this engine reads version \(Recipe.currentVersion))")
        case let other?: fail("version", "expected \(Recipe.currentVersion), found \(other.shown)")
        }
        var description: String?
        if let d = top["description"] {
            if let s = d.string { description = s } else { fail("description", "expected a string, found \(d.shown)") }
        }
        var space = WorkingSpace.linear
        if let value = top["workingSpace"] {
            let names = WorkingSpace.allCases.map(\.rawValue)
            if let s = value.string, let parsed = WorkingSpace(rawValue: s) { space = parsed }
            else { fail("workingSpace", "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value.shown)\(NearestName.hint(for: value.string ?? "", in: names))") }
        }
        var fidelity: Fidelity?
        if let value = top["fidelity"] {
            let names = Fidelity.allCases.map(\.rawValue)
            if let s = value.string, let parsed = Fidelity(rawValue: s) { fidelity = parsed }
            else { fail("fidelity", "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value.shown)\(NearestName.hint(for: value.string ?? "", in: names))") }
        }

        let hasSteps = top["steps"] != nil, hasNodes = top["nodes"] != nil
        if hasSteps == hasNodes {
            fail("", hasSteps ? "give either steps or nodes, not both" : "missing steps (a chain) or nodes (a graph)")
            return nil
        }
        if hasSteps {
            for key in ["inputs", "output"] where top[key] != nil {
                fail(key, "only graphs (nodes) have \(key); a chain of steps reads the input \"main\"")
            }
            guard case .array(let steps) = top["steps"]! else {
                fail("steps", "expected a list of steps, found \(top["steps"]!.shown)")
                return nil
            }
            guard steps.count <= limits.maxNodes else {
                fail("steps", "\(steps.count) steps, more than the limit of \(limits.maxNodes)")
                return nil
            }
            var nodes = [Recipe.Node]()
            var named = [String: Int]()  // ids steps carry, and the step that first did
            var previous = "main"
            for (k, step) in steps.enumerated() {
                let path = "steps[\(k)]"
                let node = decodeNode(step, path: path, id: String(k), chainInput: previous)
                previous = node?.id ?? String(k)
                guard let node else { continue }
                if node.id != String(k) {
                    if let first = named[node.id] {
                        fail("\(path).id", "\"\(node.id)\" is already the id of steps[\(first)]")
                    } else if node.id == "main" || Int(node.id) != nil {
                        fail("\(path).id", "\"\(node.id)\" cannot name a step: \"main\" is the input and numbers are "
                             + "steps' positions; use a word such as \"\(node.op.rawValue)\"")
                    }
                    named[node.id] = named[node.id] ?? k
                }
                nodes.append(node)
            }
            guard issues.isEmpty else { return nil }
            var recipe = Recipe(description: description, workingSpace: space, nodes: nodes,
                                output: nodes.last?.id ?? "main", isChain: true)
            recipe.fidelity = fidelity
            return recipe
        }

        var inputs = ["main"]
        if let value = top["inputs"] {
            if case .array(let list) = value, !list.isEmpty, list.allSatisfy({ $0.string?.isEmpty == false }) {
                inputs = list.compactMap(\.string)
                if Set(inputs).count != inputs.count { fail("inputs", "input names must be unique") }
            } else {
                fail("inputs", "expected a non-empty list of names, found \(value.shown)")
            }
        }
        guard case .array(let list) = top["nodes"]! else {
            fail("nodes", "expected a list of nodes, found \(top["nodes"]!.shown)")
            return nil
        }
        guard list.count <= limits.maxNodes else {
            fail("nodes", "\(list.count) nodes, more than the limit of \(limits.maxNodes)")
            return nil
        }
        var nodes = [Recipe.Node]()
        var nodePaths = [String]()  // the JSON path of each decoded node (invalid entries are skipped)
        var paths = [String: String]()  // first path that declared each id
        for (k, entry) in list.enumerated() {
            let path = "nodes[\(k)]"
            guard let node = decodeNode(entry, path: path, id: nil, chainInput: nil) else { continue }
            if paths[node.id] != nil || inputs.contains(node.id) {
                fail("\(path).id", "\"\(node.id)\" is already used by \(paths[node.id] ?? "an input")")
            }
            paths[node.id] = paths[node.id] ?? path
            nodes.append(node)
            nodePaths.append(path)
        }
        // Ids of nodes that failed validation still count, so one bad node does not cascade into more errors.
        let declared: [String] = list.compactMap { if case .object(let f) = $0 { return f["id"]?.string }; return nil }
        let names = inputs + declared
        for (node, path) in zip(nodes, nodePaths) {
            let single = node.op.spec.inputs.count == 1
            for (j, reference) in node.inputs.enumerated() where !names.contains(reference) {
                fail(single ? "\(path).input" : "\(path).inputs[\(j)]",
                     "no input or node named \"\(reference)\"\(NearestName.hint(for: reference, in: names))")
            }
        }
        var output = nodes.last?.id ?? inputs[0]
        switch top["output"] {
        case .string(let name)?:
            output = name
            if !names.contains(name) { fail("output", "no node named \"\(name)\"\(NearestName.hint(for: name, in: names))") }
        case nil: fail("output", "missing: name the node whose image is the result")
        case let other?: fail("output", "expected a node id, found \(other.shown)")
        }
        if issues.isEmpty, let cycle = Self.cycle(in: nodes) {
            fail(paths[cycle[0]] ?? "nodes", "cycle through " + cycle.map { "\"\($0)\"" }.joined(separator: " → "))
        }
        guard issues.isEmpty else { return nil }
        var recipe = Recipe(description: description, workingSpace: space, inputs: inputs, nodes: nodes, output: output)
        recipe.fidelity = fidelity
        return recipe
    }

    /// Decodes one step or node. In a chain, `id` (the step's position, unless it carries an "id") and
    /// `chainInput` are given; in a graph they are read.
    mutating func decodeNode(_ value: JSONValue, path: String, id fixedID: String?, chainInput: String?) -> Recipe.Node? {
        guard case .object(let fields) = value else {
            fail(path, "expected an object with an \"op\", found \(value.shown)")
            return nil
        }
        let before = issues.count
        guard let opValue = fields["op"] else {
            fail("\(path).op", "missing: name a filter (filterrun list shows them)")
            return nil
        }
        guard let opName = opValue.string, let op = FilterID(rawValue: opName) else {
            let found = opValue.string.map { "unknown filter \"\($0)\"" } ?? "expected a filter name, found \(opValue.shown)"
            fail("\(path).op", found + (opValue.string.map(FilterSynonyms.hint(forFilter:)) ?? ""))
            return nil
        }
        let spec = op.spec
        var id = fixedID ?? ""
        if fixedID == nil {
            switch fields["id"] {
            case .string(let s)? where !s.isEmpty: id = s
            case nil: fail("\(path).id", "missing: every node of a graph needs a unique id")
            case let other?: fail("\(path).id", "expected a non-empty string, found \(other.shown)")
            }
        } else if let given = fields["id"] {
            // A chain step may carry a name for `--set`; without one it is named by its position.
            if case .string(let s) = given, !s.isEmpty { id = s }
            else { fail("\(path).id", "expected a non-empty string, found \(given.shown)") }
        }

        var inputs = [String]()
        if let chainInput {
            for key in ["input", "inputs"] where fields[key] != nil {
                fail("\(path).\(key)", "steps of a chain read the previous step; use nodes to wire inputs")
            }
            if spec.inputs.count > 1 {
                fail("\(path).op", "\(op.rawValue) takes \(spec.inputs.count) inputs (\(spec.inputs.joined(separator: ", "))); use nodes")
            }
            inputs = [chainInput]
        } else {
            switch (fields["input"], fields["inputs"]) {
            case (.string(let s)?, nil): inputs = [s]
            case (nil, .array(let list)?) where list.allSatisfy({ $0.string != nil }): inputs = list.compactMap(\.string)
            case (nil, nil): break
            case (.some, .some): fail(path, "give input or inputs, not both")
            case (let single?, nil): fail("\(path).input", "expected a node or input name, found \(single.shown)")
            case (nil, let many?): fail("\(path).inputs", "expected a list of names, found \(many.shown)")
            }
            let expected = spec.inputs.count
            let allowed = spec.isGenerator ? 0...1 : expected...expected
            if !allowed.contains(inputs.count) {
                let names = spec.inputs.joined(separator: ", ")
                fail(path, "\(op.rawValue) takes \(spec.isGenerator ? "at most 1 input (its size)" : "\(expected) input\(expected == 1 ? "" : "s") (\(names))"), found \(inputs.count)")
            }
        }

        var params = spec.defaults
        let paramNames = spec.params.map(\.name)
        for key in fields.keys.sorted() where !Recipe.structuralKeys.contains(key) {
            guard let param = spec.param(named: key) else {
                let known = paramNames.isEmpty ? " (\(op.rawValue) has no parameters)" : NearestName.hint(for: key, in: paramNames)
                fail("\(path).\(key)", "\(op.rawValue) has no parameter \"\(key)\"\(known)")
                continue
            }
            if let value = ParamDecoding.decode(fields[key]!, as: param) { params.set(key, value) }
            else {
                let problem = ParamDecoding.problem(fields[key]!, as: param)
                fail("\(path).\(key)\(problem.suffix)", problem.message)
            }
        }
        if issues.count == before {
            for problem in spec.check(params) { fail(path, problem) }
        }
        guard issues.count == before else { return nil }
        var node = Recipe.Node(id: id, op: op, inputs: inputs)
        node.params = params
        return node
    }

    /// The ids along a cycle, if the graph has one.
    static func cycle(in nodes: [Recipe.Node]) -> [String]? {
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var state = [String: Int]()  // 1 visiting, 2 done
        var stack = [String]()
        func visit(_ id: String) -> [String]? {
            guard let node = byID[id] else { return nil }
            if state[id] == 2 { return nil }
            if state[id] == 1 { return Array(stack[stack.firstIndex(of: id)!...]) + [id] }
            state[id] = 1
            stack.append(id)
            for input in node.inputs { if let c = visit(input) { return c } }
            stack.removeLast()
            state[id] = 2
            return nil
        }
        for node in nodes { if let c = visit(node.id) { return c } }
        return nil
    }
}

/// Type-checks one parameter value against its declaration.
enum ParamDecoding {
    static func decode(_ value: JSONValue, as param: ParamSpec) -> ParamValue? {
        switch param.kind {
        case .number(let range):
            let legacy = param.acceptsNumericString ? value.string.flatMap(Double.init) : nil
            guard let v = value.number ?? legacy, v.isFinite, range.contains(v) else { return nil }
            return .number(v)
        case .integer(let range):
            guard let v = value.number, v.rounded() == v, v >= Double(range.lowerBound), v <= Double(range.upperBound) else { return nil }
            return .number(v)
        case .boolean:
            if case .bool(let v) = value { return .boolean(v) }
            return nil
        case .choice(let options):
            if let s = value.string, options.contains(s) { return .string(s) }
            if let v = value.number, options.contains(ParamSpec.format(v)) { return .string(ParamSpec.format(v)) }
            return nil
        case .numbers(let counts, let range):
            guard case .array(let list) = value, counts.contains(list.count) else { return nil }
            let numbers = list.compactMap(\.number)
            guard numbers.count == list.count, numbers.allSatisfy(range.contains) else { return nil }
            return .numbers(numbers)
        case .points(let minCount):
            guard case .array(let list) = value, list.count >= minCount else { return nil }
            var points = [[Double]]()
            for entry in list {
                guard case .array(let pair) = entry, pair.count == 2, let x = pair[0].number, let y = pair[1].number,
                      (0...1).contains(x), (0...1).contains(y) else { return nil }
                if let last = points.last, x <= last[0] { return nil }
                points.append([x, y])
            }
            return .points(points)
        case .color:
            return color(value).map(ParamValue.color)
        case .file(let extensions):
            guard let path = value.string, !path.isEmpty, path.utf8.count <= 4096, !path.contains("\u{0}"),
                  extensions.contains((path as NSString).pathExtension.lowercased()) else { return nil }
            return .string(path)
        case .text(let maxBytes):
            guard let text = value.string, text.utf8.count <= maxBytes, !text.contains("\u{0}") else { return nil }
            return .string(text)
        }
    }

    /// Why `decode` refused `value`: the deepest place that is wrong (a list entry rather than the whole list)
    /// as a path suffix, and what was expected there.
    static func problem(_ value: JSONValue, as param: ParamSpec) -> (suffix: String, message: String) {
        let whole = ("", "expected \(param.expectation), found \(value.shown)")
        switch (param.kind, value) {
        case (.numbers(let counts, let range), .array(let list)):
            for (i, entry) in list.enumerated() {
                guard let v = entry.number, range.contains(v) else {
                    return ("[\(i)]", "expected a number in \(ParamSpec.format(range.lowerBound))...\(ParamSpec.format(range.upperBound)), found \(entry.shown)")
                }
            }
            if !counts.contains(list.count) { return ("", "expected \(param.expectation), found a list of \(list.count)") }
            return whole
        case (.points, .array(let list)):
            var last = -Double.infinity
            for (i, entry) in list.enumerated() {
                guard case .array(let pair) = entry, pair.count == 2, let x = pair[0].number, let y = pair[1].number,
                      (0...1).contains(x), (0...1).contains(y) else {
                    return ("[\(i)]", "expected an [x, y] point with x and y in 0...1, found \(entry.shown)")
                }
                if x <= last { return ("[\(i)]", "x must increase from point to point: \(ParamSpec.format(x)) follows \(ParamSpec.format(last))") }
                last = x
            }
            return whole
        default:
            return whole
        }
    }

    static func color(_ value: JSONValue) -> RGBA? {
        switch value {
        case .array(let list) where list.count == 3 || list.count == 4:
            let v = list.compactMap(\.number)
            guard v.count == list.count, v.allSatisfy((0...1).contains) else { return nil }
            return RGBA(v[0], v[1], v[2], v.count == 4 ? v[3] : 1)
        case .string(let s) where s.hasPrefix("#") && (s.count == 7 || s.count == 9):
            guard let n = UInt64(s.dropFirst(), radix: 16) else { return nil }
            let bytes = s.count == 7 ? (n << 8) | 0xFF : n
            func c(_ shift: UInt64) -> Double { Double((bytes >> shift) & 0xFF) / 255 }
            return RGBA(c(24), c(16), c(8), c(0))
        default:
            return nil
        }
    }
}

extension RGBA {
    /// A colour as a recipe writes it: "#rrggbb", "#rrggbbaa", or "[r, g, b]" / "[r, g, b, a]" in 0...1; also
    /// "r,g,b" without brackets (for command lines), and the names white, black, transparent.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "white": self = .white; return
        case "black": self = .black; return
        case "transparent": self = .clear; return
        default: break
        }
        let json = trimmed.hasPrefix("#") ? "\"\(trimmed)\"" : trimmed.hasPrefix("[") ? trimmed : "[\(trimmed)]"
        guard let value = try? JSONParser.parse(Data(json.utf8)), let color = ParamDecoding.color(value) else { return nil }
        self = color
    }
}
