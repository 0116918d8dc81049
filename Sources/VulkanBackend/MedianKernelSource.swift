import FilterCore

/// The median kernel for one radius: Shaders/median.comp with the window's loads and `MedianNetwork`'s exchanges
/// written out, padding wires set to +∞ as the CPU backend pads them.
enum MedianKernelSource {
    static func source(radius r: Int) -> String {
        let count = (2 * r + 1) * (2 * r + 1)
        let pairs = MedianNetwork.pairs(count: count)
        var lines = [String]()
        var wire = 0
        for dy in -r...r {
            for dx in -r...r {
                lines.append("    vec4 v\(wire) = clamped0(p.x + \(dx), p.y + \(dy));")
                wire += 1
            }
        }
        let padding = Set(pairs.flatMap { [$0.0, $0.1] }).filter { $0 >= count }.sorted()
        for w in padding { lines.append("    vec4 v\(w) = vec4(uintBitsToFloat(0x7f800000u));") }
        lines += pairs.map { "    ORDER(v\($0.0), v\($0.1));" }
        lines.append("    store(p, v\(count / 2));")
        return ShaderLibrary.source(.median).replacingOccurrences(of: "    // @NETWORK", with: lines.joined(separator: "\n"))
    }
}
