/// Which rows of its inputs a primitive reads for a band of its own rows: the one rule from which the region rule
/// (`Plan.inputRows`, used by banded renders), strip scheduling, the work estimate's memory and `--explain` derive.
/// The same rule holds for every input of a primitive with several (they are read row for row).
package struct RowRule: Sendable {
    /// Input rows read for output rows (not yet clamped to the input); nil when it reads no pixels of its inputs.
    package let rows: @Sendable (Range<Int>) -> Range<Int>?
    /// Rows above and below each output row when rows are read as a fixed window that moves down with the output
    /// (strips of the input then serve); nil otherwise.
    package let reach: Int?
    /// Whether a strip-wise render must hold its whole input (rows are read out of order, or all of them).
    package let holdsWhole: Bool
    /// How `--explain` describes it.
    package let words: String

    /// Reads no pixels of its inputs (a source, a generator); `words` say how its own rows come.
    package static func none(_ words: String) -> RowRule {
        RowRule(rows: { _ in nil }, reach: 0, holdsWhole: false, words: words)
    }

    /// Output row y reads input rows y + offset − reach … y + offset + reach.
    package static func window(reach: Int, offset: Int = 0) -> RowRule {
        RowRule(rows: { ($0.lowerBound + offset - reach)..<($0.upperBound + offset + reach) }, reach: reach,
                holdsWhole: false, words: "strips, reach \(reach) rows")
    }

    /// As `window`, but read from the start of the `segment`-row block a band begins in, where running sums restart.
    package static func segmentedWindow(reach: Int, segment: Int) -> RowRule {
        RowRule(rows: { ($0.lowerBound / segment * segment - reach)..<($0.upperBound + reach) }, reach: reach,
                holdsWhole: false, words: "strips, reach \(reach) rows from the start of each \(segment)-row segment")
    }

    /// Strips whose input rows follow `rows`, moving down with the output but not as a fixed window.
    package static func streamed(_ words: String, _ rows: @escaping @Sendable (Range<Int>) -> Range<Int>) -> RowRule {
        RowRule(rows: rows, reach: nil, holdsWhole: false, words: "strips, " + words)
    }

    /// Input rows given by `rows` (a banded render reads only those), out of order for a strip-wise render, which
    /// holds the whole input.
    package static func held(_ rows: @escaping @Sendable (Range<Int>) -> Range<Int>) -> RowRule {
        RowRule(rows: rows, reach: nil, holdsWhole: true, words: "whole input")
    }

    /// Rows mirrored top to bottom in an input `height` rows tall (a vertical flip, a half turn).
    package static func mirrored(height: Int) -> RowRule {
        .held { (height - $0.upperBound)..<(height - $0.lowerBound) }
    }

    /// Every row of an input `height` rows tall, whatever the band.
    package static func whole(height: Int) -> RowRule {
        RowRule(rows: { _ in 0..<height }, reach: nil, holdsWhole: true, words: "whole input")
    }
}
