extension Recipe {
    /// The recipe inputs a render needs (those the output depends on).
    package var usedInputs: [String] {
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>(), used = [String]()
        var pending = [output]
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            if let node = byID[name] { pending += node.inputs } else if inputs.contains(name) { used.append(name) }
        }
        return inputs.filter(used.contains)
    }

    /// Largest image any node may produce (the decoder's default limit too).
    package static let maxPixels = 1 << 28

    /// Whether `target` depends on the node or input named `name` (or is it).
    package func reaches(_ target: String, from name: String) -> Bool {
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>(), pending = [target]
        while let next = pending.popLast() {
            if next == name { return true }
            guard seen.insert(next).inserted, let node = byID[next] else { continue }
            pending += node.inputs
        }
        return false
    }

    /// Lowers the recipe to primitives, given the size of each input image as stored and its EXIF orientation
    /// (1…8; absent means 1): an input stored sideways is turned upright right after it is read, so the recipe
    /// sees upright images. Nodes the output does not depend on are not lowered. Problems that depend on sizes (a
    /// crop outside the image) are reported by JSON path.
    /// Filters that look at pixels first (a smart crop, trim) lower provisionally without an answer in `answers`:
    /// use `lowering(...)` to learn their questions.
    package func plan(inputSizes: [String: (width: Int, height: Int)], orientations: [String: Int] = [:],
                      answers: [String: AnalysisAnswer] = [:]) throws -> Plan {
        try lowering(inputSizes: inputSizes, orientations: orientations, answers: answers).plan
    }

    /// The plan and the analysis questions still open: while any is, the plan is provisional (the renderer answers
    /// the first and lowers again).
    package func lowering(inputSizes: [String: (width: Int, height: Int)], orientations: [String: Int] = [:],
                          answers: [String: AnalysisAnswer] = [:]) throws -> (plan: Plan, questions: [AnalysisRequest]) {
        var builder = PlanBuilder(workingSpace: workingSpace)
        builder.answers = answers
        builder.baseDirectory = baseDirectory
        builder.fileFolders = fileFolders
        var refs = [String: PlanBuilder.Ref]()
        var issues = [RecipeError.Issue]()
        let index = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })

        func resolve(_ name: String) -> PlanBuilder.Ref? {
            if let ref = refs[name] { return ref }
            if inputs.contains(name) {
                guard let size = inputSizes[name] else {
                    issues.append(.init(path: "inputs", message: "no image given for input \"\(name)\""))
                    return nil
                }
                builder.origin = name
                builder.op = "source"
                var ref = builder.add(.source(name: name), [], width: size.width, height: size.height)
                let orientation = orientations[name] ?? 1
                builder.op = "orient (EXIF \(orientation))"
                for step in Reorientation.uprighting(exif: orientation) {
                    let (w, h) = builder.size(ref)
                    ref = builder.add(step.primitive, [ref], width: step.swapsAxes ? h : w, height: step.swapsAxes ? w : h)
                }
                refs[name] = ref
                return ref
            }
            guard let k = index[name] else { return nil }
            let node = nodes[k]
            var inputRefs = [PlanBuilder.Ref]()
            for input in node.inputs {
                guard let ref = resolve(input) else { return nil }
                inputRefs.append(ref)
            }
            builder.origin = node.id
            builder.op = node.op.rawValue
            do {
                let first = builder.nodes.count
                let ref = try node.op.spec.lower(&builder, node.params, inputRefs)
                // Refuse sizes that imply absurd work before anything is allocated (a pad of 10^6 on each side).
                if let huge = builder.nodes[first...].first(where: { $0.width.multipliedReportingOverflow(by: $0.height).partialValue > Self.maxPixels
                    || $0.width.multipliedReportingOverflow(by: $0.height).overflow }) {
                    throw PlanError("the result would be \(huge.width)×\(huge.height), more than the limit of 2^28 pixels")
                }
                refs[name] = ref
                return ref
            } catch {
                issues.append(.init(path: path(ofNode: k), message: "\(error)"))
                return nil
            }
        }

        guard let output = resolve(output), issues.isEmpty else { throw RecipeError(issues) }
        return (Plan(nodes: builder.nodes, output: output.index, workingSpace: workingSpace), builder.requests)
    }
}

extension Plan {
    /// Whether the output can hold transparency, given which sources have an alpha channel. Decides whether an
    /// opaque input gains an alpha channel in the output file.
    package func outputMayHaveAlpha(sourceHasAlpha: [String: Bool]) -> Bool {
        nodesMayHaveAlpha(sourceHasAlpha: sourceHasAlpha)[output]
    }

    /// Whether each node's result can hold transparency, given which sources have an alpha channel: where not, its
    /// working alpha is 1 and straight colour is premultiplied colour (the CPU skips unpremultiplying it).
    package func nodesMayHaveAlpha(sourceHasAlpha: [String: Bool]) -> [Bool] {
        carriedForwardAll { index, inputs in
            let node = nodes[index]
            // A source's one "input" is whether its file has alpha.
            let given = node.primitive.sourceName.map { [sourceHasAlpha[$0] ?? true] } ?? inputs
            let result = node.primitive.descriptor.mayHaveAlpha(given, shape(of: index))
            return result || node.post.contains(where: \.changesAlpha)
        }
    }

    /// A property of each node's result derived from its inputs' (nodes come after their inputs): `rule` gives
    /// node i's value from its inputs' values; the output's value is returned.
    func carriedForward<Value>(_ rule: (Int, [Value]) -> Value) -> Value {
        carriedForwardAll(rule)[output]
    }

    /// `carriedForward`'s value for every node.
    func carriedForwardAll<Value>(_ rule: (Int, [Value]) -> Value) -> [Value] {
        var values = [Value]()
        values.reserveCapacity(nodes.count)
        for (i, node) in nodes.enumerated() { values.append(rule(i, node.inputs.map { values[$0] })) }
        return values
    }
}
